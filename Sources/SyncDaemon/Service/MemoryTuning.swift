import CMalloc

/// Giving memory back to the system after work that freed a lot at once.
///
/// Encoding a snapshot of a large state allocates about as much as the state's JSON in small
/// blocks and frees them again; glibc keeps the freed pages, between live blocks and in the
/// arena of each thread-pool thread that did the work. Returning them after each snapshot
/// (`malloc_trim`) leaves a daemon holding 20,000 items of 200 characters at 44-49 MiB instead
/// of 111 MiB (docs/PERFORMANCE.md, figure 12) at no measurable CPU per action. Two further
/// settings were measured and left out: one arena for every thread (no memory saved once the
/// pages are returned, a tenth of the pipelined throughput lost) and fixed mmap and trim
/// thresholds (38 MiB, but about 1.5 µs more CPU per pipelined action).
enum MemoryTuning {
    /// Gives the free pages of every arena back to the system.
    static func returnFreedMemory() {
        malloc_trim(0)
    }
}
