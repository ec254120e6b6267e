/// What a run measures and how much: the command line, parsed.
struct BenchOptions: Codable {
    /// The figures there are.
    static let figureNumbers = 1...13
    /// The figures that need PostgreSQL (a shared log).
    static let sharedLogFigures: Set<Int> = [9, 10, 11]

    /// Figures to run.
    var figures: [Int] = Array(figureNumbers)
    /// Whether Redis is measured.
    var redis: ServerUse = .ifPresent
    /// Whether the shared-log figures (9-11) run: they need a private PostgreSQL 15 server.
    var postgres: ServerUse = .ifPresent
    /// Where to write the JSON report; `nil` prints it after the table.
    var jsonPath: String?
    /// Where `--plots` draws the figures, if anywhere.
    var plotsDirectory: String?
    /// The directory holding `todod` and `todo` (default: this executable's directory).
    var binDirectory: String?
    /// Words put before the todod command line, e.g. `valgrind --tool=callgrind`.
    var daemonPrefix: [String] = []
    /// Seconds to wait for a daemon to answer at start (longer under a profiler).
    var readyTimeout: Double = 60
    /// Keep the temporary directory (journals, daemon logs) after the run.
    var keepTemporary = false

    /// Figures 1 and 2: the count is split into this many rounds, todod's and Redis's in turn,
    /// so that both meet the same moments of the machine's other load (the disk's above all).
    var rounds = 5
    /// Figure 1: dispatches one at a time, in all (and Redis SETs).
    var serialCount = 5_000
    /// Figure 2: dispatches in all, over `pipelinedClients` connections of `pipelineDepth`.
    var pipelinedCount = 100_000
    /// Figure 2: connections.
    var pipelinedClients = 50
    /// Figure 2: requests in flight per connection.
    var pipelineDepth = 16
    /// Figure 3: seconds of one dispatch per millisecond.
    var fanOutSeconds = 5.0
    /// Figure 3: milliseconds between two dispatches (1: one per ms; more for a profiler).
    var fanOutPeriodMs = 1
    /// Figure 3: rounds of the raw subscribers' run (a stall shows in one round's tail).
    var fanOutRounds = 3
    /// Figure 3: the todod subscriber counts.
    var fanOutSubscribers = [100, 1000]
    /// Figure 3: the Redis subscriber count.
    var redisSubscribers = 100
    /// Figure 4: idle connections opened.
    var idleConnections = 1000
    /// Figure 5: list sizes.
    var growthSizes = [100, 10_000, 100_000]
    /// Figure 5: toggles measured per size (enough for a steady median: 20 moved it by 30%).
    var growthToggles = 200
    /// Figure 6: actions in the journal.
    var coldActions = 1_000_000
    /// Figure 6: actions after the snapshot (replayed at start).
    var coldTail = 1_000
    /// Figure 6: starts measured.
    var coldRuns = 5
    /// Figure 7: runs of each command.
    var processRuns = 50
    /// Figure 8: adds per daemon (the list the stalled subscriber follows grows to this).
    var stalledItems = 20_000
    /// Figure 12: adds of a 200-character text into an empty daemon.
    var memoryItems = 20_000
    /// Figure 9: seconds of paced dispatches.
    var crossHostSeconds = 30.0
    /// Figure 9: dispatches per second.
    var crossHostRate = 100
    /// Figure 9: seconds of each `pg_test_fsync` test (0: not run).
    var fsyncTestSeconds = 1
    /// Figure 10: dispatches in all for each number of daemons (and for the SQLite daemon).
    var sharedLogCount = 30_000
    /// Figure 10: connections per daemon.
    var sharedLogClients = 16
    /// Figure 10: requests in flight per connection.
    var sharedLogDepth = 16
    /// Figure 10: the numbers of daemons writing.
    var sharedLogDaemons = [1, 2, 3]
    /// Figure 11: actions in the shared log.
    var joinActions = 100_000
    /// Figure 11: actions after the log's snapshot.
    var joinTail = 1_000
    /// Figure 11: starts measured with the snapshot, and again without.
    var joinRuns = 5

    /// Whether a server the bench does not build (Redis, PostgreSQL) is used.
    enum ServerUse: String, Codable {
        /// When it is installed; otherwise its columns stay empty, or its figures are skipped.
        case ifPresent
        /// Always; a missing server stops the run.
        case required
        /// Never.
        case skipped
    }

    /// Tiny sizes for the test suite: every code path, a few seconds, numbers meaningless.
    static var smoke: BenchOptions {
        var options = BenchOptions()
        options.rounds = 2
        options.serialCount = 100
        options.pipelinedCount = 400
        options.pipelinedClients = 5
        options.pipelineDepth = 4
        options.fanOutSeconds = 0.3
        options.fanOutSubscribers = [3, 6]
        options.fanOutRounds = 1
        options.redisSubscribers = 3
        options.idleConnections = 20
        options.growthSizes = [10, 100, 1000]
        options.growthToggles = 4
        options.coldActions = 3_000
        options.coldTail = 100
        options.coldRuns = 2
        options.processRuns = 3
        options.stalledItems = 300
        options.memoryItems = 300
        options.crossHostSeconds = 0.3
        options.fsyncTestSeconds = 0
        options.sharedLogCount = 200
        options.sharedLogClients = 4
        options.sharedLogDepth = 4
        options.joinActions = 2_000
        options.joinTail = 100
        options.joinRuns = 2
        return options
    }

    /// The text of `--help`.
    static let usage = """
        usage: todo-bench [--smoke] [--only N,N...] [--json PATH] [--plots DIR] [--redis | --no-redis] [--postgres | --no-postgres]
                          [--rounds N] [--serial-count N] [--pipelined-count N] [--pipelined-clients N] [--pipeline-depth N]
                          [--fanout-seconds S] [--fanout-period-ms N] [--fanout-subscribers N,N...] [--fanout-rounds N]
                          [--redis-subscribers N]
                          [--idle-connections N] [--growth-sizes N,N...] [--growth-toggles N]
                          [--cold-actions N] [--cold-tail N] [--cold-runs N] [--process-runs N] [--stalled-items N]
                          [--memory-items N]
                          [--crosshost-seconds S] [--crosshost-rate N] [--fsync-test-seconds N]
                          [--shared-count N] [--shared-clients N] [--shared-depth N] [--shared-daemons N,N...]
                          [--join-actions N] [--join-tail N] [--join-runs N]
                          [--bin-dir DIR] [--daemon-prefix 'CMD ARGS'] [--ready-timeout S] [--keep-temp]

        Measures todod (release build beside this binary) against Redis with appendfsync always,
        both on Unix sockets in a temporary directory, and prints one table with each ratio,
        then the JSON report (or writes it to --json PATH). Progress goes to stderr.

          --smoke              tiny sizes (the test suite's run; the numbers mean nothing)
          --only N,N...        run only these figures (1-13)
          --plots DIR          draw each figure with gnuplot into DIR: latency tails per
                               series and round (log scales), ratios as bars with their targets
          --redis / --no-redis require Redis / skip it (default: measured when on PATH)
          --postgres / --no-postgres
                               require the shared-log figures (9-11) / skip them (default: run
                               when PostgreSQL 15 is installed; as root they also need the user
                               postgres, and use network namespaces when they can)
          --daemon-prefix CMD  run todod under CMD (split on spaces), e.g. a profiler
          --keep-temp          keep the temporary directory (journals, logs) and print its path

        Figures: 1 durable dispatches one at a time; 2 durable dispatches, pipelined;
        3 fan-out latency at one dispatch per ms; 4 memory per idle connection;
        5 cost of one toggle as the list grows; 6 cold start with a long journal;
        7 one `todo add` as a whole process; 8 dispatch throughput and memory with one
        subscriber that stops reading; with a shared log in PostgreSQL: 9 cross-host
        latency at 100 dispatches/s; 10 throughput with 1, 2 and 3 daemons writing, against
        one daemon on SQLite; 11 a new daemon joining a log of 100,000 actions; 12 memory
        against the encoded state at 20,000 items; 13 fan-out latency through the web gateway
        (todo web), beside raw subscribers of the daemon.

        """

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(BenchError) -> BenchOptions {
        var options = arguments.contains("--smoke") ? BenchOptions.smoke : BenchOptions()
        var words = arguments.makeIterator()
        func value(_ option: String) throws(BenchError) -> String {
            guard let value = words.next() else { throw .usage("\(option) needs a value") }
            return value
        }
        func positive(_ option: String) throws(BenchError) -> Int {
            let text = try value(option)
            guard let number = Int(text), number > 0 else {
                throw .usage("\(option) needs a positive integer, not \(text)")
            }
            return number
        }
        func count(_ option: String) throws(BenchError) -> Int {
            let text = try value(option)
            guard let number = Int(text), number >= 0 else {
                throw .usage("\(option) needs a whole number (0 or more), not \(text)")
            }
            return number
        }
        func seconds(_ option: String) throws(BenchError) -> Double {
            let text = try value(option)
            guard let number = Double(text), number > 0 else {
                throw .usage("\(option) needs a positive number of seconds, not \(text)")
            }
            return number
        }
        func list(_ option: String) throws(BenchError) -> [Int] {
            let text = try value(option)
            let numbers = text.split(separator: ",").compactMap { Int($0) }
            guard !numbers.isEmpty, numbers.count == text.split(separator: ",").count, numbers.allSatisfy({ $0 > 0 })
            else {
                throw .usage("\(option) needs positive integers separated by commas, not \(text)")
            }
            return numbers
        }
        while let word = words.next() {
            switch word {
            case "--smoke": break
            case "--only":
                options.figures = try list(word)
                if let bad = options.figures.first(where: { !figureNumbers.contains($0) }) {
                    throw .usage("--only: there is no figure \(bad) (1-13)")
                }
            case "--json": options.jsonPath = try value(word)
            case "--plots": options.plotsDirectory = try value(word)
            case "--redis": options.redis = .required
            case "--no-redis": options.redis = .skipped
            case "--postgres": options.postgres = .required
            case "--no-postgres": options.postgres = .skipped
            case "--bin-dir": options.binDirectory = try value(word)
            case "--daemon-prefix": options.daemonPrefix = try value(word).split(separator: " ").map(String.init)
            case "--ready-timeout": options.readyTimeout = try seconds(word)
            case "--keep-temp": options.keepTemporary = true
            case "--rounds": options.rounds = try positive(word)
            case "--serial-count": options.serialCount = try positive(word)
            case "--pipelined-count": options.pipelinedCount = try positive(word)
            case "--pipelined-clients": options.pipelinedClients = try positive(word)
            case "--pipeline-depth": options.pipelineDepth = try positive(word)
            case "--fanout-seconds": options.fanOutSeconds = try seconds(word)
            case "--fanout-period-ms": options.fanOutPeriodMs = try positive(word)
            case "--fanout-subscribers": options.fanOutSubscribers = try list(word)
            case "--fanout-rounds": options.fanOutRounds = try positive(word)
            case "--redis-subscribers": options.redisSubscribers = try positive(word)
            case "--idle-connections": options.idleConnections = try positive(word)
            case "--growth-sizes": options.growthSizes = try list(word)
            case "--growth-toggles": options.growthToggles = try positive(word)
            case "--cold-actions": options.coldActions = try positive(word)
            case "--cold-tail": options.coldTail = try positive(word)
            case "--cold-runs": options.coldRuns = try positive(word)
            case "--process-runs": options.processRuns = try positive(word)
            case "--stalled-items": options.stalledItems = try positive(word)
            case "--memory-items": options.memoryItems = try positive(word)
            case "--crosshost-seconds": options.crossHostSeconds = try seconds(word)
            case "--crosshost-rate": options.crossHostRate = try positive(word)
            case "--fsync-test-seconds": options.fsyncTestSeconds = try count(word)
            case "--shared-count": options.sharedLogCount = try positive(word)
            case "--shared-clients": options.sharedLogClients = try positive(word)
            case "--shared-depth": options.sharedLogDepth = try positive(word)
            case "--shared-daemons":
                options.sharedLogDaemons = try list(word)
                if let bad = options.sharedLogDaemons.first(where: { $0 > SharedLogLab.hostCount }) {
                    throw .usage("--shared-daemons: at most \(SharedLogLab.hostCount) daemons, not \(bad)")
                }
            case "--join-actions": options.joinActions = try positive(word)
            case "--join-tail": options.joinTail = try positive(word)
            case "--join-runs": options.joinRuns = try positive(word)
            default: throw .usage("unknown option \(word); see todo-bench --help")
            }
        }
        guard options.coldTail < options.coldActions else {
            throw .usage("--cold-tail must be smaller than --cold-actions")
        }
        guard options.joinTail < options.joinActions else {
            throw .usage("--join-tail must be smaller than --join-actions")
        }
        return options
    }
}
