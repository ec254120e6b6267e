import CMalloc
import SyncLock

/// Giving memory back to the system after work that freed a lot at once.
///
/// Encoding a snapshot of a large state writes the state's JSON into one buffer that grows by
/// doubling, on a thread-pool thread, and frees it once the snapshot is saved. glibc's mmap
/// threshold rises to the size of every large block freed, so without a fixed threshold the
/// later buffers come from that thread's arena and their pages stay there: a daemon holding
/// 20,000 items of 200 characters sat at 59-64 MiB. With blocks of 1 MiB and more always
/// mapped on their own (and unmapped when freed) it holds 35 MiB; the freed pages of the small
/// blocks are returned after each snapshot of 1 MiB or more (`malloc_trim`). (docs/PERFORMANCE.md, figure 12.)
/// One arena for every thread was measured and left out: a tenth of the pipelined throughput
/// lost.
///
/// `malloc_trim` returns the free top of the main arena only. Each thread-pool thread's arena
/// keeps its top while it is under the trim threshold plus the top pad (128 KiB each by
/// default): four threads held 0.8 MB of resident pages with 0.2 MB in use. With both lower, a
/// freed top over 64 KiB goes back at once, all but 16 KiB.
enum MemoryTuning {
    /// The size from which a block is mapped on its own, fixed rather than moving.
    static let mmapThreshold: Int32 = 1 << 20

    /// How much free memory an arena's top keeps before it is given back.
    static let trimThreshold: Int32 = 64 << 10

    /// What an arena takes beyond a request when it grows, and keeps when it gives memory back.
    static let topPad: Int32 = 16 << 10

    /// The smallest encoded snapshot after which freed memory is given back. A smaller one
    /// frees at most a few times its size, which the arenas hand to the next encoding; a trim
    /// (a pass over every arena) would return pages that encoding faults in again.
    static let smallestTrimmedEncoding = Int(mmapThreshold)

    /// Whether `configure` ran: only a process that tuned its allocator gives memory back.
    private static let isConfigured = Locked(false)

    /// Fixes glibc's mmap threshold, trim threshold and top pad; called once, on the main
    /// thread, before the daemon allocates much.
    static func configure() {
        _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold)
        _ = mallopt(M_TRIM_THRESHOLD, trimThreshold)
        _ = mallopt(M_TOP_PAD, topPad)
        isConfigured.withLock { $0 = true }
    }

    /// Gives the free pages of every arena back to the system, in a process that called
    /// `configure`. Elsewhere (a test process running a journal writer) the call can be the
    /// first into glibc's allocator, from pool threads, when the process allocates through a
    /// sanitizer's: the likely cause of an abort at exit seen once under ThreadSanitizer
    /// ("malloc assertion failure in __malloc_arena_thread_freeres").
    static func returnFreedMemory() {
        guard isConfigured.withLock({ $0 }) else { return }
        malloc_trim(0)
    }
}
