/// The rounds of one server under the pipelined load generator, added up: requests over time,
/// and the server's and the generator's CPU time per request.
struct LoadTotals {
    /// Requests over seconds, every round.
    private(set) var rate = Throughput()
    /// The server's CPU seconds, every round.
    private(set) var serverSeconds = 0.0
    /// The server's CPU seconds by `/proc/PID/stat`'s clock ticks, every round.
    private(set) var serverTickSeconds = 0.0
    /// The generator thread's CPU seconds, every round.
    private(set) var generatorSeconds = 0.0

    /// Adds one round.
    mutating func add(_ round: PipelinedWriter<some PipelinedWire>.Measurement) {
        rate.add(round.requests, seconds: round.seconds)
        serverSeconds += round.serverCPUSeconds ?? 0
        serverTickSeconds += round.serverTickCPUSeconds ?? 0
        generatorSeconds += round.generatorCPUSeconds
    }

    /// Microseconds of server CPU per request.
    var serverMicrosecondsPerAction: Double { perRequest(serverSeconds) }

    /// Microseconds of server CPU per request by `/proc/PID/stat`'s clock ticks.
    var serverTickMicrosecondsPerAction: Double { perRequest(serverTickSeconds) }

    /// Microseconds of generator CPU per request.
    var generatorMicrosecondsPerAction: Double { perRequest(generatorSeconds) }

    private func perRequest(_ seconds: Double) -> Double {
        rate.requests > 0 ? seconds * 1e6 / Double(rate.requests) : 0
    }
}
