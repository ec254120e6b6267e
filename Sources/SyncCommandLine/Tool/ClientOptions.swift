import CommandLineKit
import SyncStore

/// The global options of every client of an app's daemon: `--socket PATH` and
/// `--no-autostart`, their help written from the app's identity. `Invocation.connect(to:)`
/// reads them.
public enum ClientOptions {
    /// `--socket PATH`: where the daemon is, instead of the identity's default.
    public static let socket = "--socket"
    /// `--no-autostart`: never start the daemon when nothing answers.
    public static let noAutostart = "--no-autostart"

    /// Both options, with help naming `identity`'s daemon, variables and default paths.
    public static func standard(for identity: AppIdentity) -> [GlobalOption] {
        let daemon = identity.daemonName
        return [
            GlobalOption(
                socket, value: "PATH", summary: "the daemon socket",
                help: """
                    \(daemon)'s socket (default: $\(identity.socketVariable), else
                    $XDG_RUNTIME_DIR/\(identity.name)/\(identity.socketFileName), else /tmp/\(identity.name)-UID/\(identity.socketFileName))
                    """),
            GlobalOption(
                noAutostart, summary: "never start \(daemon)",
                help: """
                    do not start \(daemon) when nothing answers (also \(identity.noAutostartVariable)=1);
                    otherwise it is started, unless a systemd unit for it is active
                    """),
        ]
    }
}
