/// One row of `risk_signals` (SPEC §5).
public struct RiskSignal: Sendable {
    public var relationship: Int
    public var asOfDate: LocalDate
    public var signal: String
    public var severity: String
    public var windowFrom: LocalDate
    public var windowTo: LocalDate
    /// Compact JSON: counts, dates, ids, reason codes; never free text.
    public var evidence: String
    public var explanation: String
}

/// Everything the signal rules look at for one relationship.
public struct SignalInputs {
    public var relationship: Int
    public var today: LocalDate
    public var days: [RelationshipDay]
    /// CHECK_IN outcomes (date, task id, outcome), any order.
    public var checkIns: [(LocalDate, String, OutcomeKind)]
    /// In-time or not, SKIPPED outcomes with their reason.
    public var skips: [(LocalDate, String, String?)]
    /// Local dates with client activity.
    public var activeDays: Set<LocalDate>
    /// Energy intake check, computed by the Progress rules (nil: no signal possible).
    public var intake: IntakeCheck?
}

public struct IntakeCheck: Sendable {
    public var from: LocalDate
    public var to: LocalDate
    public var daysWithData: Int
    public var average: Double?
    public var target: Double?
    public var confirmed: Bool
    public var source: String
}

public enum RiskSignalCalculator {
    static let tolerance = 1e-9

    public static func signals(_ input: SignalInputs) -> [RiskSignal] {
        var out: [RiskSignal] = []
        let lastClosed = input.today.adding(days: -2)
        let closed = input.days.filter { $0.date <= lastClosed }
        func add(
            _ signal: String, _ severity: String, _ from: LocalDate, _ to: LocalDate, _ evidence: String, _ text: String
        ) {
            out.append(
                RiskSignal(
                    relationship: input.relationship, asOfDate: input.today, signal: signal, severity: severity,
                    windowFrom: from, windowTo: to, evidence: evidence, explanation: text))
        }
        // Walk back over scored, non-OPEN closed days.
        let walk = closed.reversed().filter { $0.scored > 0 && $0.state != .open }

        // MISSED_DAYS
        var missedDates: [LocalDate] = []
        for day in walk {
            guard let adherence = day.adherence, adherence <= 0 else { break }
            missedDates.append(day.date)
        }
        if missedDates.count >= 2, let first = missedDates.last, let last = missedDates.first {
            add(
                "MISSED_DAYS", missedDates.count >= 3 ? "HIGH" : "MEDIUM", first, last,
                evidenceJSON(count: missedDates.count, dates: missedDates.reversed()),
                "Missed every task on \(missedDates.count) days in a row (\(span(first, last))).")
        }

        // ADHERENCE_DROP
        let recent = input.days.filter { $0.date > lastClosed.adding(days: -7) && $0.date <= lastClosed }.compactMap(
            \.adherence)
        let prior = input.days.filter {
            $0.date > lastClosed.adding(days: -35) && $0.date <= lastClosed.adding(days: -7)
        }
        .compactMap(\.adherence)
        if recent.count >= 3 && prior.count >= 7 {
            let recentMean = recent.reduce(0, +) / Double(recent.count)
            let priorMean = prior.reduce(0, +) / Double(prior.count)
            let drop = recentMean - priorMean
            let severity: String? = drop <= -0.40 + tolerance ? "HIGH" : (drop <= -0.25 + tolerance ? "MEDIUM" : nil)
            if let severity {
                let evidence =
                    "{\"prior_days\":\(prior.count),\"prior_mean\":\(roundJSON(priorMean)),\"recent_days\":\(recent.count),\"recent_mean\":\(roundJSON(recentMean))}"
                add(
                    "ADHERENCE_DROP", severity, lastClosed.adding(days: -34), lastClosed, evidence,
                    "Adherence over the last 7 days fell \(formatNumber((-drop * 100).rounded())) points below the previous 4 weeks."
                )
            }
        }

        // MISSED_CHECK_INS: all check-ins up to today, newest first.
        let checkIns = input.checkIns.filter { $0.0 <= input.today }.sorted {
            $0.0 != $1.0 ? $0.0 > $1.0 : bytesLess($1.1, $0.1)
        }
        var missedCheckIns: [(LocalDate, String)] = []
        for checkIn in checkIns {
            guard checkIn.2 == .missed else { break }
            missedCheckIns.append((checkIn.0, checkIn.1))
        }
        if missedCheckIns.count >= 2, let first = missedCheckIns.last, let last = missedCheckIns.first {
            let ids = missedCheckIns.reversed().map { jsonString($0.1) }.joined(separator: ",")
            add(
                "MISSED_CHECK_INS", "HIGH", first.0, last.0,
                "{\"count\":\(missedCheckIns.count),\"task_ids\":[\(ids)]}",
                "Missed the last \(missedCheckIns.count) check-ins (\(span(first.0, last.0))).")
        }

        // PAIN_REPORTED
        let pains = input.skips.filter {
            $0.0 >= input.today.adding(days: -6) && $0.0 <= input.today && ($0.2 == "PAIN" || $0.2 == "INJURY")
        }.sorted { $0.0 < $1.0 }
        if let first = pains.first, let last = pains.last {
            let ids = pains.map { jsonString($0.1) }.joined(separator: ",")
            let reasons = Set(pains.compactMap(\.2)).sorted().map(jsonString).joined(separator: ",")
            add(
                "PAIN_REPORTED", "HIGH", first.0, last.0,
                "{\"count\":\(pains.count),\"reasons\":[\(reasons)],\"task_ids\":[\(ids)]}",
                "Skipped \(pains.count == 1 ? "a task" : "\(pains.count) tasks") because of pain or injury (\(span(first.0, last.0)))."
            )
        }

        // GONE_QUIET
        var quiet: [LocalDate] = []
        for day in walk {
            if input.activeDays.contains(day.date) { break }
            quiet.append(day.date)
        }
        if quiet.count >= 4, let first = quiet.last, let last = quiet.first {
            add(
                "GONE_QUIET", quiet.count >= 7 ? "HIGH" : "MEDIUM", first, last,
                evidenceJSON(count: quiet.count, dates: quiet.reversed()),
                "No client activity on the last \(quiet.count) scored days.")
        }

        // INTAKE_BELOW_TARGET
        if let intake = input.intake, intake.confirmed, let target = intake.target, target > 0,
            let average = intake.average, intake.daysWithData >= 4, average / target < 0.6 - tolerance
        {
            add(
                "INTAKE_BELOW_TARGET", "LOW", intake.from, intake.to,
                "{\"average_kcal\":\(roundJSON(average)),\"days_with_data\":\(intake.daysWithData),\"source\":\(jsonString(intake.source)),\"target_kcal\":\(roundJSON(target))}",
                "Ate about \(formatNumber(average.rounded())) kcal a day over \(intake.daysWithData) logged days, under 60% of the confirmed \(formatNumber(target.rounded())) kcal target."
            )
        }
        return out.sorted { $0.signal < $1.signal }
    }

    static func evidenceJSON(count: Int, dates: [LocalDate]) -> String {
        "{\"count\":\(count),\"dates\":[" + dates.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
    }

    static func roundJSON(_ value: Double) -> String {
        formatNumber((value * 1_000_000).rounded() / 1_000_000)
    }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "Mar 4–6", "Feb 27–Mar 1", "Mar 4".
    static func span(_ first: LocalDate, _ last: LocalDate) -> String {
        let (_, firstMonth, firstDay) = first.components
        let (_, lastMonth, lastDay) = last.components
        let start = "\(monthNames[firstMonth - 1]) \(firstDay)"
        if first == last { return start }
        if firstMonth == lastMonth { return "\(start)–\(lastDay)" }
        return "\(start)–\(monthNames[lastMonth - 1]) \(lastDay)"
    }
}
