import CMalloc

/// Giving memory back to the system after work that freed a lot at once.
///
/// Encoding a snapshot of a large state writes the state's JSON into one buffer that grows by
/// doubling, on a thread-pool thread, and frees it once the snapshot is saved. glibc's mmap
/// threshold rises to the size of every large block freed, so without a fixed threshold the
/// later buffers come from that thread's arena and their pages stay there: a daemon holding
/// 20,000 items of 200 characters sat at 59-64 MiB. With blocks of 1 MiB and more always
/// mapped on their own (and unmapped when freed) it holds 35 MiB; the freed pages of the small
/// blocks are returned after each snapshot (`malloc_trim`). (docs/PERFORMANCE.md, figure 12.)
/// One arena for every thread was measured and left out: no memory saved once the pages are
/// returned, a tenth of the pipelined throughput lost.
enum MemoryTuning {
    /// The size from which a block is mapped on its own, fixed rather than moving.
    static let mmapThreshold: Int32 = 1 << 20

    /// Fixes glibc's mmap threshold; called once, before the daemon allocates much.
    static func configure() {
        _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold)
    }

    /// Gives the free pages of every arena back to the system.
    static func returnFreedMemory() {
        malloc_trim(0)
    }
}
