#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Completing the object or array at the end of a sink, in place.
extension PlainSink {
    /// Writes the object whose members are `members[firstMember...]` and whose values are the
    /// bytes from `start` on, in encoding order: `{`, then each member as `"key":value` sorted
    /// by key, then `}`.
    ///
    /// Done in place, in one buffer: the members other than the largest are set aside, the
    /// largest (a snapshot's list of items) is moved to where it goes, then the rest is
    /// written around it. So completing a large object takes about its small members more.
    func completeObject(at start: Int, members firstMember: Int) throws(PlainJSONEncoder.Unsupported) {
        defer { members.removeLast(members.count - firstMember) }
        guard firstMember < members.count else {
            bytes.append(contentsOf: "{}".utf8)
            return
        }
        sortMembers(from: firstMember)
        var written = 1
        var largest: Int?
        var largestCount = 0
        for index in firstMember..<members.count {
            let member = members[index]
            if index > firstMember {
                try Self.checkUnambiguousOrder(members[index - 1].key, member.key)
                written += 1
            }
            members[index].keyCount = try PlainJSONString.encodedCount(member.key)
            written += members[index].keyCount + 1 + member.count
            if member.nested == nil, member.count >= largestCount {
                largest = index
                largestCount = member.count
            }
        }
        written += 1
        let setAside = bytes.count - start - largestCount
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(setAside, 1)) { spare in
            var spareEnd = 0
            bytes.withUnsafeBufferPointer { source in
                for index in firstMember..<members.count where index != largest && members[index].nested == nil {
                    let member = members[index]
                    (spare.baseAddress! + spareEnd).initialize(
                        from: source.baseAddress! + member.start, count: member.count)
                    spareEnd += member.count
                }
            }
            bytes.append(contentsOf: repeatElement(0, count: start + written - bytes.count))
            bytes.withUnsafeMutableBufferPointer { output in
                let base = output.baseAddress!
                if let largest {
                    memmove(
                        base + valueOffset(of: largest, from: firstMember, at: start), base + members[largest].start,
                        largestCount)
                }
                var position = base + start
                var spareStart = 0
                position.pointee = UInt8(ascii: "{")
                position += 1
                for index in firstMember..<members.count {
                    let member = members[index]
                    if index > firstMember {
                        position.pointee = UInt8(ascii: ",")
                        position += 1
                    }
                    position += PlainJSONString.write(member.key, to: position)
                    position.pointee = UInt8(ascii: ":")
                    position += 1
                    if index == largest {
                        // Already moved here.
                    } else if let nested = member.nested {
                        nested.sink.bytes.withUnsafeBufferPointer {
                            position.update(from: $0.baseAddress!, count: $0.count)
                        }
                    } else {
                        position.update(from: spare.baseAddress! + spareStart, count: member.count)
                        spareStart += member.count
                    }
                    position += member.count
                }
                position.pointee = UInt8(ascii: "}")
            }
        }
    }

    /// Where the value of `members[target]` goes once the object at `start`, whose members
    /// from `firstMember` on are sorted, is written.
    private func valueOffset(of target: Int, from firstMember: Int, at start: Int) -> Int {
        var offset = start + 1
        for index in firstMember..<target {
            offset += members[index].keyCount + 1 + members[index].count + 1
        }
        return offset + members[target].keyCount + 1
    }

    /// Sorts `members[firstMember...]` by key, bytewise: in place by insertion for the few
    /// members most objects have.
    private func sortMembers(from firstMember: Int) {
        func precedes(_ left: PlainMember, _ right: PlainMember) -> Bool {
            left.key.utf8.lexicographicallyPrecedes(right.key.utf8)
        }
        guard members.count - firstMember <= 16 else {
            let sorted = members[firstMember...].sorted(by: precedes)
            members.replaceSubrange(firstMember..., with: sorted)
            return
        }
        for end in (firstMember + 1)..<max(members.count, firstMember + 1) {
            var index = end
            while index > firstMember, precedes(members[index], members[index - 1]) {
                members.swapAt(index, index - 1)
                index -= 1
            }
        }
    }

    /// Closes the array that is the last bytes, first putting the containers handed out for
    /// some of its elements in their places (offsets in `bytes`, in order).
    func completeArray(inserting nested: [(offset: Int, encoder: PlainValueEncoder)]) {
        guard !nested.isEmpty else {
            bytes.append(UInt8(ascii: "]"))
            return
        }
        var end = bytes.count
        var shift = nested.reduce(0) { $0 + $1.encoder.sink.bytes.count }
        bytes.append(contentsOf: repeatElement(0, count: shift))
        bytes.append(UInt8(ascii: "]"))
        bytes.withUnsafeMutableBufferPointer { output in
            let base = output.baseAddress!
            for (offset, encoder) in nested.reversed() {
                memmove(base + offset + shift, base + offset, end - offset)
                shift -= encoder.sink.bytes.count
                encoder.sink.bytes.withUnsafeBufferPointer {
                    (base + offset + shift).update(from: $0.baseAddress!, count: $0.count)
                }
                end = offset
            }
        }
    }

    /// Throws unless `first` and `second` (sorted bytewise) are in the same order ignoring
    /// case, are not equal ignoring case, and hold no digits: then any way of sorting keys puts
    /// `first` before `second`.
    private static func checkUnambiguousOrder(_ first: String, _ second: String) throws(PlainJSONEncoder.Unsupported) {
        func folded(_ byte: UInt8) throws(PlainJSONEncoder.Unsupported) -> UInt8 {
            guard byte < UInt8(ascii: "0") || byte > UInt8(ascii: "9") else { throw PlainJSONEncoder.Unsupported() }
            return byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        }
        var left = first.utf8.makeIterator()
        var right = second.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): throw PlainJSONEncoder.Unsupported()
            case (nil, .some(let byte)):
                _ = try folded(byte)
                while let byte = right.next() { _ = try folded(byte) }
                return
            case (.some, nil): throw PlainJSONEncoder.Unsupported()
            case (.some(let leftByte), .some(let rightByte)):
                let (a, b) = (try folded(leftByte), try folded(rightByte))
                if a == b { continue }
                guard a < b else { throw PlainJSONEncoder.Unsupported() }
                while let byte = left.next() { _ = try folded(byte) }
                while let byte = right.next() { _ = try folded(byte) }
                return
            }
        }
    }
}
