import CMalloc
import Glibc

/// How the daemon asks glibc's allocator to hold memory, set once before its threads start.
///
/// By default glibc gives each thread that allocates its own arena (up to eight per core) and
/// keeps freed memory in each: the thread-pool threads that encode snapshots and run commits
/// each kept tens of megabytes after a snapshot of a large state, and the mmap threshold grows
/// with every large block freed, so big buffers stay on the heap. With one arena and fixed
/// thresholds (large blocks mapped and unmapped, the heap's top trimmed past 128 KiB) a daemon
/// holding 20,000 items of 200 characters stays at 55 MiB instead of 115 MiB, at the same CPU
/// per action (docs/PERFORMANCE.md, figure 12). An operator's own `MALLOC_ARENA_MAX`,
/// `MALLOC_MMAP_THRESHOLD_` or `MALLOC_TRIM_THRESHOLD_` is left in force.
enum MemoryTuning {
    /// Bytes past which a block is mapped on its own, and past which free memory at the top of
    /// the heap goes back to the system.
    static let threshold: Int32 = 128 * 1024

    /// Applies the settings the environment does not make.
    static func apply() {
        if getenv("MALLOC_ARENA_MAX") == nil { mallopt(M_ARENA_MAX, 1) }
        if getenv("MALLOC_MMAP_THRESHOLD_") == nil { mallopt(M_MMAP_THRESHOLD, threshold) }
        if getenv("MALLOC_TRIM_THRESHOLD_") == nil { mallopt(M_TRIM_THRESHOLD, threshold) }
    }

    /// Gives the free pages inside the heap back to the system (`malloc_trim`), after work
    /// that freed a lot at once.
    static func returnFreedMemory() {
        malloc_trim(0)
    }
}
