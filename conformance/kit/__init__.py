"""The conformance kit's runner: cases as data, the daemon, the adapter, the proxy."""
