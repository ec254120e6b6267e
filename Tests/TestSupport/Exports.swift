// The `.blocking` trait, and the daemon and programs of an app's integration tests, are the
// framework's (`SyncIntegrationTesting`); every test importing TestSupport has them too.
@_exported import SyncIntegrationTesting
