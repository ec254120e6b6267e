/// Times as the detail pane shows them: `2024-05-01 12:00 UTC`, the same for everyone (no
/// time zone lookup, so snapshots do not depend on the machine).
enum Timestamp {
    /// `milliseconds` since the Unix epoch, in UTC, to the minute.
    static func utc(milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondsOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        return
            "\(year)-\(twoDigits(month))-\(twoDigits(day)) \(twoDigits(secondsOfDay / 3600)):\(twoDigits(secondsOfDay % 3600 / 60)) UTC"
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (counting in 400-year eras of
    /// 146097 days, with years starting in March so that the leap day comes last).
    private static func civilDate(daysSinceEpoch days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
