import Testing

@testable import DayfoldCore

/// `HealthMetric.registry` is the one declaration of the metrics (SPEC §1.5,
/// §6): the HealthKit lookup, unit conversion, daily aggregate, client day
/// columns and Progress rules follow from it. Values below are worked by
/// hand from SPEC §1.5's table.
@Suite struct HealthMetricTests {
    /// SPEC §6's client_days columns, then SPEC §10's analyst columns.
    static let clientDayColumns = [
        "user_id", "local_date", "timezone", "journal_entries", "journal_energy_kcal", "journal_protein_g",
        "journal_carbs_g", "journal_fat_g", "health_records", "health_energy_kcal", "health_protein_g",
        "health_carbs_g", "health_fat_g", "water_ml", "steps", "body_mass_kg", "as_of", "energy_kcal", "protein_g",
        "carbs_g", "fat_g", "dietary_source",
    ]

    @Test func theClientDayColumnsFollowTheRegistryInSpecOrder() {
        let names = ReportTables.clientDayFields.map(\.name)
        #expect(names == Self.clientDayColumns)
        for metric in HealthMetric.registry {
            #expect(names.contains(metric.healthColumn), "\(metric.name) has no client_days column")
            if let journal = metric.journalColumn { #expect(names.contains(journal)) }
            if let chosen = metric.chosenColumn { #expect(names.contains(chosen)) }
        }
        #expect(Set(names).count == names.count)
    }

    @Test func everyHealthKitTypeMapsToItsMetric() {
        for (position, metric) in HealthMetric.registry.enumerated() {
            let bytes = Array(metric.healthKitType.utf8)
            let found = HealthTypes.metric(forType: bytes, field: 0..<bytes.count)
            #expect(found == Metric(position: position))
            #expect(found?.rawValue == metric.name)
        }
        let other = Array("HKQuantityTypeIdentifierHeartRate".utf8)
        #expect(HealthTypes.metric(forType: other, field: 0..<other.count) == nil)
        #expect(Set(HealthMetric.registry.map(\.healthKitType)).count == HealthMetric.registry.count)
    }

    @Test(arguments: [
        (Metric.energyKcal, "kcal", 250.0, 250.0), (.energyKcal, "Cal", 250, 250), (.energyKcal, "kJ", 4.184, 1),
        (.proteinG, "g", 12, 12), (.proteinG, "mg", 1500, 1.5), (.carbsG, "mcg", 2_000_000, 2),
        (.fatG, "mg", 250, 0.25), (.waterMl, "mL", 330, 330), (.waterMl, "L", 1.5, 1500),
        (.waterMl, "fl_oz_us", 1, 29.5735), (.steps, "count", 4000, 4000), (.bodyMassKg, "kg", 70, 70),
        (.bodyMassKg, "lb", 2, 0.90718474), (.bodyMassKg, "g", 70_500, 70.5),
    ])
    func unitsConvertAsTheSpecTableSays(metric: Metric, unit: String, value: Double, expected: Double) {
        #expect(HealthTypes.normalize(value, unit: unit, metric: metric) == expected)
    }

    @Test func anUnknownUnitIsNil() {
        #expect(HealthTypes.normalize(1, unit: "furlong", metric: .steps) == nil)
        // Units are case-sensitive, and belong to their metric.
        #expect(HealthTypes.normalize(1, unit: "ml", metric: .waterMl) == nil)
        #expect(HealthTypes.normalize(1, unit: "KG", metric: .bodyMassKg) == nil)
        #expect(HealthTypes.normalize(1, unit: "kcal", metric: .proteinG) == nil)
        #expect(HealthTypes.normalize(1, unit: "g", metric: .waterMl) == nil)
    }

    /// `÷4.184` divides: multiplying by its reciprocal rounds differently for
    /// some values, and outputs must not change by a last bit.
    @Test func aDivisionStaysADivision() {
        let value = 7.0  // 7 ÷ 4.184 and 7 × (1 ÷ 4.184) differ in the last bit
        #expect(value / 4.184 != value * (1 / 4.184))
        #expect(HealthTypes.normalize(value, unit: "kJ", metric: .energyKcal) == value / 4.184)
        #expect(HealthTypes.normalize(3, unit: "lb", metric: .bodyMassKg) == 3 * 0.45359237)
    }

    @Test func eachAggregateMakesTheDayValue() {
        var day = HealthDay()
        func add(_ metric: Metric, _ value: Double, source: Int32 = 0, start: Int64, order: Int) {
            day.add(metric, value, source: source, start: Instant(seconds: start), end: nil, order: order)
        }
        // Sums.
        add(.energyKcal, 300, start: 10, order: 1)
        add(.energyKcal, 200, start: 20, order: 2)
        add(.waterMl, 250, start: 10, order: 3)
        // Steps: phone 1000 + 500, watch 1200 → 1500, never 2700.
        add(.steps, 1000, source: 1, start: 10, order: 4)
        add(.steps, 1200, source: 2, start: 10, order: 5)
        add(.steps, 500, source: 1, start: 30, order: 6)
        // Body mass: the latest start wins, whatever the order read.
        add(.bodyMassKg, 71, start: 50, order: 7)
        add(.bodyMassKg, 70, start: 40, order: 8)
        #expect(day.records == 8)
        #expect(day.value(.energyKcal) == 500)
        #expect(day.value(.waterMl) == 250)
        #expect(day.value(.steps) == 1500)
        #expect(day.value(.bodyMassKg) == 71)
        #expect(day.value(.proteinG) == nil)
        var expected = MetricValues()
        expected[.energyKcal] = 500
        expected[.waterMl] = 250
        expected[.steps] = 1500
        expected[.bodyMassKg] = 71
        #expect(day.values == expected)
    }

    @Test func theRegistryFitsADaysStorage() {
        #expect(HealthMetric.registry.count <= MetricValues.capacity)
        var values = MetricValues()
        for position in 0..<MetricValues.capacity { #expect(values[position: position] == nil) }
        values[.bodyMassKg] = 0
        #expect(values[.bodyMassKg] == 0)
        #expect(values[.steps] == nil)
    }

    @Test func progressTakesTheMetricsByNameWithTheirRules() {
        #expect(
            Metric.allCases.map(\.rawValue) == [
                "body_mass_kg", "carbs_g", "energy_kcal", "fat_g", "protein_g", "steps", "water_ml",
            ])
        #expect(Metric.allCases.filter { !$0.descriptor.hasProgressTotal } == [.bodyMassKg])
        #expect(Metric(rawValue: "water_ml") == .waterMl)
        #expect(Metric(rawValue: "heart_rate") == nil)
    }

    /// The journal gives energy, protein, carbs and fat, in `Nutrients`
    /// order, named as the journal's columns.
    @Test func theJournalMetricsAreTheNutrientsInOrder() {
        #expect(Metric.dietary == [.energyKcal, .proteinG, .carbsG, .fatG])
        #expect(
            Metric.dietary.map(\.rawValue)
                == [JournalColumn.energyKcal, .proteinG, .carbsG, .fatG].map(\.name))
        #expect(Metric.dietary.map(\.journalIndex) == [0, 1, 2, 3])
        #expect(Metric.registered.filter { !$0.isDietary }.allSatisfy { $0.journalIndex == nil })
    }

    @Test func aHealthOnlyMetricHasNoJournalValue() throws {
        let date = try #require(LocalDate(year: 2026, month: 3, day: 1))
        var day = ClientDay(date: date, zone: 0)
        day.journal[0] = 400
        day.health[.energyKcal] = 800
        day.health[.steps] = 4000
        let table = ClientTable(user: "u", today: date, days: [day], requestedDietarySource: .journal)
        #expect(table.value(.energyKcal, .journal, date) == 400)
        #expect(table.value(.energyKcal, .health, date) == 800)
        #expect(table.value(.steps, .health, date) == 4000)
        #expect(table.value(.steps, .journal, date) == nil)
    }

    /// A Progress window that starts before a table's first day and ends
    /// after its last reads the days the table holds, in date order, and
    /// skips days without a value (no data is not zero).
    @Test func aWindowReadsTheDaysTheTableHoldsInDateOrder() throws {
        let first = try #require(LocalDate(year: 2026, month: 3, day: 1))
        var days = (0..<4).map { ClientDay(date: first.adding(days: $0), zone: 0) }
        days[0].health[.steps] = 100
        days[2].health[.steps] = 300
        days[3].health[.steps] = 400
        days[1].journal[0] = 1_200
        let table = ClientTable(user: "u", today: days[3].date, days: days, requestedDietarySource: .journal)
        func read(_ metric: Metric, _ source: ProgressSource, _ from: Int, _ through: Int) -> [Double] {
            var values: [Double] = []
            table.forEachValue(metric, source, from: first.adding(days: from), through: first.adding(days: through)) {
                values.append($1)
            }
            return values
        }
        #expect(read(.steps, .health, -5, 10) == [100, 300, 400])
        #expect(read(.steps, .health, 1, 2) == [300])
        #expect(read(.steps, .health, 4, 9) == [])
        #expect(read(.steps, .health, -9, -1) == [])
        #expect(read(.steps, .health, 2, 1) == [])
        #expect(read(.energyKcal, .journal, -1, 3) == [1_200])
        #expect(read(.steps, .journal, 0, 3) == [])
    }
}
