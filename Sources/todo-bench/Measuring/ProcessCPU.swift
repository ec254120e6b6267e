import Foundation
import Glibc

/// CPU time spent by a process (all its threads) or by the calling thread, for the CPU-per-action
/// figures: unlike a rate, it does not depend on how the 2 cores were shared with the load
/// generator.
enum ProcessCPU {
    /// Seconds of user plus system time of process `pid` so far, from `/proc/PID/stat`
    /// (`utime` + `stime`, in clock ticks: 10 ms resolution).
    static func seconds(of pid: pid_t) throws(BenchError) -> Double {
        let path = "/proc/\(pid)/stat"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let nameEnd = text.lastIndex(of: ")")
        else {
            throw .file(path: path, reason: "cannot read (has the process exited?)")
        }
        // After "pid (comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw .file(path: path, reason: "no utime and stime fields")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Seconds on a CPU of every thread process `pid` has now, summed from
    /// `/proc/PID/task/TID/schedstat` (the kernel's run time in nanoseconds): the same time as
    /// `seconds(of:)` at nanosecond rather than clock-tick resolution, as long as no thread
    /// ends during the window (the servers' threads live as long as they do).
    static func threadSeconds(of pid: pid_t) throws(BenchError) -> Double {
        let directory = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw .file(path: directory, reason: "cannot list (has the process exited?)")
        }
        var nanoseconds: UInt64 = 0
        for thread in threads {
            // A thread that ended since the listing has no file any more, and no time to add.
            guard let text = try? String(contentsOfFile: "\(directory)/\(thread)/schedstat", encoding: .utf8) else {
                continue
            }
            guard let first = text.split(separator: " ").first, let running = UInt64(first) else {
                throw .file(path: "\(directory)/\(thread)/schedstat", reason: "no run time: \(text)")
            }
            nanoseconds += running
        }
        return Double(nanoseconds) / 1e9
    }

    /// Seconds of CPU time of the calling thread so far (`CLOCK_THREAD_CPUTIME_ID`).
    static func currentThreadSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
