import CUV

/// The end of an event loop: every handle still open is a bug (each owner closes its own
/// handle during the shutdown), so it is named in the log by its type, closed through its
/// `LoopHandle` (and that handle's target, if it has one), and the loop runs until every close
/// callback has run before it is closed.
///
/// ```
///  uv_walk ──▶ open handle? ──▶ log "bug: … : TYPE" ──▶ owner closes it (or uv_close)
///  uv_run until no handle is left ──▶ uv_loop_close
/// ```
enum LoopShutdown {
    /// The start of the error line logged for each handle left open; the handle's type (libuv's
    /// name for it: `timer`, `pipe`, `async`, …) follows. Tests look for this text.
    static let leftoverHandleLine = "bug: libuv handle left open at shutdown: "

    /// Closes `loop` as described above, logging to `logger`; returns the type names of the
    /// handles that were left open, in the order the loop holds them (empty when all is well).
    @discardableResult
    static func close(_ loop: UnsafeMutablePointer<uv_loop_t>, logger: Logger) -> [String] {
        let leftovers = openHandles(of: loop)
        for handle in leftovers {
            logger.log(.error, leftoverHandleLine + typeName(of: handle))
            if let data = handle.pointee.data,
                let owner = Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as? any AnyLoopHandle
            {
                owner.closeLeftover()
            } else {
                uv_close(handle, nil)
            }
        }
        uv_run(loop, UV_RUN_DEFAULT)
        let closed = uv_loop_close(loop)
        if closed != 0 {
            logger.log(.error, "bug: the event loop did not close: \(String(cString: uv_err_name(closed)))")
        }
        return leftovers.map(typeName(of:))
    }

    /// libuv's name for the type of `handle`.
    static func typeName(of handle: UnsafeMutablePointer<uv_handle_t>) -> String {
        String(cString: uv_handle_type_name(uv_handle_get_type(handle)))
    }

    /// The handles of `loop` not already closing (libuv's internal ones are not walked).
    private static func openHandles(of loop: UnsafeMutablePointer<uv_loop_t>) -> [UnsafeMutablePointer<uv_handle_t>] {
        var handles: [UnsafeMutablePointer<uv_handle_t>] = []
        // `arg` is `handles`, valid for the duration of the walk only.
        withUnsafeMutablePointer(to: &handles) { list in
            uv_walk(
                loop,
                { handle, arg in
                    guard let handle, uv_is_closing(handle) == 0 else { return }
                    arg!.assumingMemoryBound(to: [UnsafeMutablePointer<uv_handle_t>].self).pointee.append(handle)
                }, list)
        }
        return handles
    }
}
