import Foundation

/// `--plots DIR`: each figure drawn with gnuplot, beside the table. A figure with latency
/// distributions gets `figureN-latency.png`, their tails on log scales (the fraction of samples
/// slower than a latency, against the latency: a stall in one round is a line of its own far to
/// the right, where a table of p99s would hide it); a figure with ratios gets
/// `figureN-ratios.png`, a bar per ratio (ours over Redis, or over the figure's baseline) with
/// its target beside it. The data and the gnuplot script of each are kept beside the picture.
struct Plots {
    /// Where the pictures go (made when missing).
    let directory: String
    /// The gnuplot that draws them.
    let gnuplot: String

    /// The plotter for `directory`, or why there is none (no gnuplot on PATH).
    init(directory: String) throws(BenchError) {
        guard let gnuplot = Subprocess.findInPath("gnuplot") else {
            throw .missingProgram(name: "gnuplot (for --plots; apt-get install gnuplot-nox)", looked: "PATH")
        }
        self.gnuplot = gnuplot
        self.directory = directory
    }

    /// Draws every figure of `report`; returns the pictures' paths.
    func draw(_ report: Report) throws(BenchError) -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .file(path: directory, reason: "cannot make the directory: \(error)")
        }
        var pictures: [String] = []
        for figure in report.figures {
            if !figure.tails.isEmpty { pictures.append(try drawLatency(figure)) }
            let ratios = figure.rows.filter { $0.ratio != nil }
            if !ratios.isEmpty { pictures.append(try drawRatios(figure, ratios)) }
        }
        return pictures
    }

    private func drawLatency(_ figure: FigureReport) throws(BenchError) -> String {
        let name = "figure\(figure.figure)-latency"
        var series: [String] = []
        for (index, tail) in figure.tails.enumerated() where !tail.points.isEmpty {
            let data = "\(name)-\(index + 1).dat"
            try write(tail.points.map { "\($0[0]) \($0[1])" }.joined(separator: "\n") + "\n", to: data)
            series.append("'\(data)' using 1:2 with linespoints pointsize 0.6 title \(Self.quoted(tail.name))")
        }
        return try run(
            name,
            """
            set title \(Self.quoted("Figure \(figure.figure): \(figure.title)"))
            set logscale xy
            set format y "10^{%L}"
            set xlabel "latency (ms)"
            set ylabel "fraction of samples slower"
            set grid
            set key outside right top
            plot \(series.joined(separator: ", \\\n     "))
            """)
    }

    private func drawRatios(_ figure: FigureReport, _ rows: [ResultRow]) throws(BenchError) -> String {
        let name = "figure\(figure.figure)-ratios"
        let lines = rows.map { row in
            "\(Self.quoted(row.measure)) \(row.ratio!) \(row.targetRatio.map { "\($0)" } ?? "NaN")"
        }
        try write(lines.joined(separator: "\n") + "\n", to: "\(name).dat")
        return try run(
            name,
            """
            set title \(Self.quoted("Figure \(figure.figure): \(figure.title)"))
            set logscale y
            set ylabel "ours / Redis or baseline (x)"
            set style fill solid 0.5
            set boxwidth 0.6
            set xtics rotate by -25 left noenhanced
            set bmargin 9
            set grid ytics
            set xrange [-0.6:\(Double(rows.count) - 0.4)]
            plot '\(name).dat' using 0:2:xtic(1) with boxes title "measured", \\
                 '' using 0:3 with points pointtype 9 pointsize 2.5 title "target", \\
                 1 with lines dashtype 2 linecolor "gray" title "1x"
            """)
    }

    /// Writes `script` (after the terminal and output lines) and runs gnuplot on it; returns
    /// the picture's path.
    private func run(_ name: String, _ script: String) throws(BenchError) -> String {
        let picture = "\(name).png"
        try write(
            "set terminal pngcairo size 1100,620 font \"sans,10\"\nset output '\(picture)'\n\(script)\n",
            to: "\(name).gp")
        // The script names its files relative to the directory it is in.
        try Subprocess.run(gnuplot, ["-e", "cd \(Self.quoted(directory))", "\(name).gp"], in: directory)
        return "\(directory)/\(picture)"
    }

    private func write(_ text: String, to file: String) throws(BenchError) {
        let path = "\(directory)/\(file)"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw .file(path: path, reason: "cannot write: \(error)")
        }
    }

    /// `text` as a gnuplot string (double quotes inside it become single ones).
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "'") + "\""
    }
}
