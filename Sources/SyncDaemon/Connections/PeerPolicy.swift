import Glibc

/// Who may talk to the daemon, judged on the peer credentials the kernel reports for each
/// connection (`SO_PEERCRED`): by default the daemon's own user and root; `--allow-uid` and
/// `--allow-group` widen it.
public struct PeerPolicy: Sendable, Equatable {
    /// Users allowed besides the daemon's own and root.
    public var allowedUserIDs: Set<UInt32>
    /// Groups whose members (primary or supplementary) are allowed.
    public var allowedGroupIDs: Set<UInt32>

    /// A policy allowing the daemon's user, root, and the given users and groups.
    public init(allowedUserIDs: Set<UInt32> = [], allowedGroupIDs: Set<UInt32> = []) {
        self.allowedUserIDs = allowedUserIDs
        self.allowedGroupIDs = allowedGroupIDs
    }

    /// Whether a peer running as `uid` with primary group `gid` may connect.
    func allows(uid: UInt32, gid: UInt32) -> Bool {
        if uid == getuid() || uid == 0 || allowedUserIDs.contains(uid) { return true }
        guard !allowedGroupIDs.isEmpty else { return false }
        if allowedGroupIDs.contains(gid) { return true }
        return !allowedGroupIDs.isDisjoint(with: Self.supplementaryGroups(of: uid, primary: gid))
    }

    /// The groups the user `uid` belongs to, from the group database.
    private static func supplementaryGroups(of uid: UInt32, primary: UInt32) -> [UInt32] {
        var record = passwd()
        var buffer = [CChar](repeating: 0, count: 16384)
        var result: UnsafeMutablePointer<passwd>?
        guard getpwuid_r(uid, &record, &buffer, buffer.count, &result) == 0, result != nil, let name = record.pw_name
        else { return [] }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, primary, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, primary, &groups, &count) >= 0 else { return [] }
        }
        return Array(groups.prefix(Int(count)))
    }

    /// The id of the group named `name`, or `name` itself if it is a number.
    public static func groupID(named name: String) -> UInt32? {
        if let number = UInt32(name) { return number }
        var record = group()
        var buffer = [CChar](repeating: 0, count: 16384)
        var result: UnsafeMutablePointer<group>?
        guard getgrnam_r(name, &record, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return record.gr_gid
    }

    /// The id of the user named `name`, or `name` itself if it is a number.
    public static func userID(named name: String) -> UInt32? {
        if let number = UInt32(name) { return number }
        var record = passwd()
        var buffer = [CChar](repeating: 0, count: 16384)
        var result: UnsafeMutablePointer<passwd>?
        guard getpwnam_r(name, &record, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return record.pw_uid
    }
}
