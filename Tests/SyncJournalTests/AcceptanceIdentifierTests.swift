import SyncJournal
import Testing

/// The acceptance identifier's text, as the journal's columns hold it.
@Suite struct AcceptanceIdentifierTests {
    @Test(
        arguments: [
            (0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210, "01234567-89ab-cdef-fedc-ba9876543210"),
            (0, 0, "00000000-0000-0000-0000-000000000000"),
            (UInt64.max, UInt64.max, "ffffffff-ffff-ffff-ffff-ffffffffffff"),
            (1, 1 << 63, "00000000-0000-0001-8000-000000000000"),
        ] as [(UInt64, UInt64, String)])
    func theTextIsTheCanonicalLowercaseUUIDAndReadsBack(high: UInt64, low: UInt64, text: String) {
        let identifier = AcceptanceIdentifier(high: high, low: low)
        #expect(identifier.description == text)
        #expect(AcceptanceIdentifier(text: Array(text.utf8)) == identifier)
        #expect(AcceptanceIdentifier(text: Array(text.uppercased().utf8)) == identifier)
        #expect(AcceptanceIdentifier(text: Array(text.utf8.filter { $0 != UInt8(ascii: "-") })) == identifier)
    }

    @Test(arguments: [
        "", "0123456789abcdef", "01234567-89ab-cdef-fedc-ba987654321", "01234567-89ab-cdef-fedc-ba98765432100",
        "0123456789ab-cdef-fedc-ba98765432100", "01234567-89ab-cdef-fedc-ba987654321g",
    ])
    func anythingElseIsNotAnIdentifier(text: String) {
        #expect(AcceptanceIdentifier(text: Array(text.utf8)) == nil)
    }
}
