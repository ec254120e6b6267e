// `DiffableViewModel` speaks in `ModelChange`s: an app that imports the store has them, and
// `ArrayDifference`, without naming the module below it.
@_exported import SyncDiff
