import Foundation
import Testing

@testable import DayfoldCore

/// An as-of series reads its drop once (SPEC §12): each earlier step's drop
/// is derived from an ingest as of the last step (`AsOfSteps`). It must be,
/// in every row the facts read, and in the facts themselves, what a plain
/// ingest as of that step makes.
@Suite struct AsOfStepsTests {
    /// Every hand-made case of the suite that a run accepts, the conformance drop and the sample
    /// drop: each as of its own instant, with steps back three days before it.
    static var drops: [(drop: URL, pipeline: URL?, asOf: String)] {
        let cases = TestPaths.fixtures.appendingPathComponent("Cases")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cases.path)) ?? []
        var drops: [(URL, URL?, String)] = names.sorted().compactMap { name in
            let folder = cases.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: folder.appendingPathComponent("case.json")),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let asOf = object["as_of"] as? String,
                (object["exit_code"] as? Int ?? 0) == 0  // a drop a run refuses has no steps
            else { return nil }
            let pipeline = folder.appendingPathComponent("pipeline.json")
            return (
                folder.appendingPathComponent("drop"),
                FileManager.default.fileExists(atPath: pipeline.path) ? pipeline : nil, asOf
            )
        }
        let conformance = TestPaths.fixtures.appendingPathComponent("Conformance")
        drops.append(
            (
                conformance.appendingPathComponent("drop"), conformance.appendingPathComponent("pipeline.json"),
                "2026-03-29T09:30:00Z"
            ))
        drops.append(
            (
                TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo"),
                TestPaths.repositoryRoot.appendingPathComponent("Pipelines/sample.json"), "2026-03-30T18:00:00Z"
            ))
        return drops
    }

    @Test func theCasesAndDropsAreThere() {
        // A suite that found no drop would prove nothing.
        #expect(Self.drops.count > 50)
    }

    @Test func everyDerivedStepEqualsAPlainIngestOfThatStep() throws {
        for (drop, pipeline, asOf) in Self.drops {
            try expectStepsEqualPlainIngests(drop: drop.path, pipeline: pipeline?.path, asOf: asOf)
        }
    }

    /// A series takes its next steps before a step's client side is done
    /// (`SeriesSteps.begun`): the client sides are a chain of their own,
    /// each carried from the one before. Begun all at once and finished
    /// afterwards, in order, every step's facts are still a plain run's.
    @Test func stepsBegunBeforeTheStepBeforeIsFinishedAreAPlainRunsSteps() throws {
        let conformance = TestPaths.fixtures.appendingPathComponent("Conformance")
        let sample = TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo")
        for (drop, pipeline, asOf) in [
            (
                conformance.appendingPathComponent("drop"), conformance.appendingPathComponent("pipeline.json"),
                "2026-03-29T09:30:00Z"
            ),
            (sample, TestPaths.repositoryRoot.appendingPathComponent("Pipelines/sample.json"), "2026-03-30T18:00:00Z"),
        ] {
            let config = try PipelineConfig.load(path: pipeline.path)
            let last = try #require(parseAsOf(asOf))
            let day: Int64 = 86_400_000_000
            // Eight steps begun at once give the client sides' links every
            // chance to run together if they did not wait for each other.
            let steps = (0...7).map {
                ParsedInstant(instant: Instant(micros: last.instant.micros - (7 - $0) * day / 2), offsetSeconds: 0)
            }
            let once = try PipelineRunner.ingest(
                input: drop.path, config: config, asOf: last, hashInputs: false, reportHeaders: false,
                readsPush: false, keepsAsOfCandidates: true)
            var series = SeriesSteps(once, from: steps[0].instant, config: config)
            let begun = steps.map { series.begun(asOf: $0) }
            for (step, pending) in zip(steps, begun) {
                let plain = try PipelineRunner.ingest(
                    input: drop.path, config: config, asOf: step, hashInputs: false, reportHeaders: false,
                    readsPush: false)
                let want = FactsStage.compute(plain, config: config, asOf: step)
                let got = pending.finished().facts()
                // Compared as Bools: a failure names the table, not its thousands of rows.
                let same = { (left: Any, right: Any) in String(describing: left) == String(describing: right) }
                let label = "\(drop.lastPathComponent) as of \(step.instant)"
                #expect(same(got.clientTables, want.clientTables), "\(label): client tables")
                #expect(same(got.progress, want.progress), "\(label): progress")
                #expect(same(got.signals, want.signals), "\(label): signals")
                #expect(same(got.relationshipDays, want.relationshipDays), "\(label): relationship days")
                #expect(same(got.streaks, want.streaks), "\(label): streaks")
                #expect(!want.clientTables.isEmpty && !want.progress.isEmpty, "\(label)")
            }
        }
    }

    /// Rows whose fate moves between the steps: an event whose first copy
    /// happened later than its retry (and a third row chained to the retry by
    /// its retry key), a value entry likewise, a journal entry whose
    /// revisions move it to the next day and then delete it, and health
    /// days whose samples straddle the steps. A user without a zone (whose
    /// rows' days follow their own offsets) has an entry and a sample on a
    /// day after its today when they come in: the day they fall on is
    /// filled when a later step's today reaches it.
    @Test func rowsThatAStepDecidesOtherwiseAreDecidedAsOfThatStep() throws {
        let drop = try HandMadeDrop([
            "subjects/relationships.csv": """
            relationship_id,client_user_id,coach_user_id,workspace_id,status,started_on,ended_on
            r1,u1,c1,w1,ACTIVE,2026-03-07,

            """,
            "subjects/timezones.csv": "user_id,timezone,effective_from\nu1,Europe/Berlin,2020-01-01T00:00:00Z\n",
            "tasks/instances/instances-000.csv": """
            id,relationship_id,local_date,timezone,task_kind,source_key,status,action_schema
            t1,r1,2026-03-08,Europe/Berlin,HABIT,habit:t1,PENDING,
            t2,r1,2026-03-08,Europe/Berlin,CHECK_IN,check:t2,PENDING,
            t3,r1,2026-03-08,Europe/Berlin,HABIT,habit:t3,PENDING,"{""value_capture"": {""mode"": ""ACCUMULATE"", ""target"": 8, ""unit"": ""glass""}}"

            """,
            "tasks/status_events/events-000.csv": """
            id,daily_task_instance_id,relationship_id,to_status,occurred_at,reason,device_id,client_operation_id
            e1,t1,r1,COMPLETED,2026-03-09T20:00:00Z,,d1,op1
            e1,t1,r1,SKIPPED,2026-03-08T10:00:00Z,tired,d1,op2
            e3,t2,r1,COMPLETED,2026-03-08T11:00:00Z,,d1,op2
            e4,t2,r1,SKIPPED,2026-03-10T09:00:00Z,busy,,

            """,
            "tasks/value_entries/values-000.csv": """
            id,daily_task_instance_id,relationship_id,value,recorded_at,device_id,client_operation_id
            v1,t3,r1,5,2026-03-09T22:00:00Z,d1,op1
            v1,t3,r1,3,2026-03-08T12:00:00Z,d1,op2
            v2,t3,r1,1,2026-03-08T13:00:00Z,d1,op2

            """,
            "journal/journal-000.csv": """
            entry_id,user_id,cooked_at,revision,portion,energy_kcal,protein_g,carbs_g,fat_g,deleted
            j1,u1,2026-03-08T08:00:00Z,1,,500,,,,
            j1,u1,2026-03-09T08:00:00Z,2,2,500,,,,
            j2,u1,2026-03-08T09:00:00Z,1,,300,,,,
            j1,u1,2026-03-09T23:30:00Z,3,,500,,,,true
            j4,u2,2026-03-08T01:00:00Z,1,,200,,,,
            j3,u2,2026-03-09T02:00:00+10:00,1,,400,,,,

            """,
            "health/health-000.csv": """
            user_id,type,value,unit,start,end,source_name,source_bundle_id,device
            u1,HKQuantityTypeIdentifierStepCount,4000,count,2026-03-09T06:00:00Z,2026-03-09T06:30:00Z,Watch,com.apple.watch,
            u1,HKQuantityTypeIdentifierStepCount,3000,count,2026-03-09T21:00:00Z,2026-03-09T21:30:00Z,Phone,com.apple.phone,
            u1,HKQuantityTypeIdentifierBodyMass,80,kg,2026-03-09T07:00:00Z,,Scale,com.scale,
            u1,HKQuantityTypeIdentifierBodyMass,79.5,kg,2026-03-09T19:00:00Z,,Scale,com.scale,
            u1,HKQuantityTypeIdentifierDietaryEnergyConsumed,700,kcal,2026-03-10T10:00:00Z,,App,com.app,
            u2,HKQuantityTypeIdentifierStepCount,1000,count,2026-03-09T03:00:00+10:00,2026-03-09T03:30:00+10:00,Phone,com.apple.phone,

            """,
        ])
        defer { drop.remove() }
        let steps = try expectStepsEqualPlainIngests(
            drop: drop.drop.path, pipeline: nil, asOf: "2026-03-10T12:00:00Z", every: 3)
        // The rows do move: the first step and the last see different events.
        #expect(Set(steps.map(\.events)).count > 2)
        #expect(Set(steps.map(\.journal)).count > 2)
        #expect(Set(steps.map(\.health)).count > 2)
    }

    /// What a step's drop holds that the facts read, as text.
    struct StepRows: Hashable {
        var events: String
        var values: String
        var journal: String
        var health: String
    }

    static func rows(_ drop: IngestedDrop) -> StepRows {
        let events = drop.events.map {
            "\(String(decoding: drop.eventIDs[$0.id], as: UTF8.self)) \($0.task) \($0.toStatus) "
                + "\($0.occurredAt) \($0.offsetSeconds) \(drop.eventReason($0.reason) ?? "-")"
        }
        let health = drop.healthDays.keys.sorted().flatMap { user in
            (drop.healthDays[user] ?? [:]).sorted { $0.key < $1.key }.map { day, values in
                "\(user) \(day) \(values.records) \(values.values)"
            }
        }
        return StepRows(
            events: events.joined(separator: "\n"), values: String(describing: drop.valueEntries),
            journal: String(describing: drop.journal), health: health.joined(separator: "\n"))
    }

    /// Steps every `every` hours from three days before `asOf` to `asOf`:
    /// each derived drop's rows and facts are a plain ingest's. Returns the rows of each step.
    @discardableResult
    func expectStepsEqualPlainIngests(drop: String, pipeline: String?, asOf text: String, every hours: Int64 = 12)
        throws -> [StepRows]
    {
        let config = try pipeline.map { try PipelineConfig.load(path: $0) } ?? PipelineConfig()
        let last = try #require(parseAsOf(text))
        let hour: Int64 = 3_600_000_000
        let first = Instant(micros: last.instant.micros - 72 * hour)
        let once = try PipelineRunner.ingest(
            input: drop, config: config, asOf: last, hashInputs: false, reportHeaders: false, readsPush: false,
            keepsAsOfCandidates: true)
        let derived = AsOfSteps(once, from: first)
        var taskFacts = derived.taskFacts()
        var healthDays = derived.healthDaySteps()
        var series = SeriesSteps(once, from: first, config: config)
        var seen: [StepRows] = []
        for offset in stride(from: Int64(0), through: 72, by: Int(hours)) {
            let step = ParsedInstant(instant: Instant(micros: first.micros + offset * hour), offsetSeconds: 0)
            let plain = try PipelineRunner.ingest(
                input: drop, config: config, asOf: step, hashInputs: false, reportHeaders: false, readsPush: false)
            let mine = derived.drop(asOf: step.instant)
            let (want, got) = (Self.rows(plain), Self.rows(mine))
            #expect(got == want, "\(drop) as of \(step.instant)")
            // The health days carried from the step before (`StepHealthDays`).
            var carriedHealth = mine
            carriedHealth.healthDays = healthDays.advance(to: step.instant)
            #expect(Self.rows(carriedHealth).health == want.health, "\(drop) as of \(step.instant): health days")
            seen.append(got)
            // Each entry's local day, found once for all the steps, is the
            // day a plain run's grouping of its journal finds.
            let grouped = { (byUser: [String: [(date: LocalDate, entry: Int)]]) in
                byUser.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            }
            #expect(
                grouped(ClientDayBuilder.journalByUser(mine, days: derived.journalDays(asOf: step.instant)))
                    == grouped(ClientDayBuilder.journalByUser(plain)), "\(drop) as of \(step.instant): journal days")
            let wantFacts = FactsStage.compute(plain, config: config, asOf: step)
            let gotFacts = FactsStage.compute(mine, config: config, asOf: step)
            #expect(
                String(describing: gotFacts.relationshipDays) == String(describing: wantFacts.relationshipDays),
                "\(drop) as of \(step.instant): relationship days")
            #expect(String(describing: gotFacts.streaks) == String(describing: wantFacts.streaks))
            #expect(String(describing: gotFacts.signals) == String(describing: wantFacts.signals))
            #expect(String(describing: gotFacts.progress) == String(describing: wantFacts.progress))
            // A series computes the outcomes, days of activity and relationship
            // days step after step, each from the one before (`StepTaskFacts`,
            // `StepRelationshipDays`), on a drop without its task rows.
            let (outcomes, activity, _) = taskFacts.advance(to: step.instant)
            #expect(
                String(describing: outcomes) == String(describing: wantFacts.outcomes),
                "\(drop) as of \(step.instant): outcomes carried from the step before")
            #expect(activity == FactsStage.relationshipActivity(plain), "\(drop) as of \(step.instant): activity")
            let carried = series.carried(asOf: step)
            let seriesFacts = carried.facts()
            // The days with journal entries, carried for the users whose
            // entries did not change.
            #expect(
                carried.activity.journalByUser == FactsStage.journalActivity(plain),
                "\(drop) as of \(step.instant): journal activity carried from the step before")
            #expect(
                String(describing: seriesFacts.relationshipDays) == String(describing: wantFacts.relationshipDays),
                "\(drop) as of \(step.instant): relationship days carried from the step before")
            // … and the client day tables (`StepClientTables`).
            #expect(
                String(describing: seriesFacts.clientTables) == String(describing: wantFacts.clientTables),
                "\(drop) as of \(step.instant): client tables carried from the step before")
            #expect(String(describing: seriesFacts.streaks) == String(describing: wantFacts.streaks))
            #expect(String(describing: seriesFacts.signals) == String(describing: wantFacts.signals))
            #expect(String(describing: seriesFacts.progress) == String(describing: wantFacts.progress))
        }
        // A step before the one before is computed whole again; its rows'
        // decisions and days of activity are carried back.
        let (outcomes, activity, _) = taskFacts.advance(to: first)
        let plainFirst = try PipelineRunner.ingest(
            input: drop, config: config, asOf: ParsedInstant(instant: first, offsetSeconds: 0), hashInputs: false,
            reportHeaders: false, readsPush: false)
        #expect(
            String(describing: outcomes)
                == String(describing: TaskOutcomeCalculator.outcomes(plainFirst, asOf: first)),
            "\(drop): a step back to the first")
        #expect(activity == FactsStage.relationshipActivity(plainFirst), "\(drop): activity of a step back")
        var healthBack = plainFirst
        healthBack.healthDays = healthDays.advance(to: first)
        #expect(Self.rows(healthBack).health == Self.rows(plainFirst).health, "\(drop): health days of a step back")
        let wantFirst = FactsStage.compute(
            plainFirst, config: config, asOf: ParsedInstant(instant: first, offsetSeconds: 0))
        let gotFirst = series.facts(asOf: ParsedInstant(instant: first, offsetSeconds: 0))
        #expect(
            String(describing: gotFirst.relationshipDays) == String(describing: wantFirst.relationshipDays),
            "\(drop): relationship days of a step back to the first")
        #expect(
            String(describing: gotFirst.clientTables) == String(describing: wantFirst.clientTables),
            "\(drop): client tables of a step back to the first")
        return seen
    }
}
