/// The fixed words of the synthetic drop, pre-encoded as CSV field bytes
/// (quoted where the text needs it) so rows are assembled by copying.
enum SyntheticVocabulary {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A CSV field holding `text`, quoted and with `"` doubled when needed.
    static func field(_ text: String) -> [UInt8] {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return bytes(text) }
        return bytes("\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
    }

    // Task kinds and their instance columns.
    struct TaskKind: Sendable {
        var name: [UInt8]
        var context: [UInt8]
        var snapshot: [UInt8]
        var actionSchema: [UInt8]
        var keyPrefix: [UInt8]
        var namespace: SyntheticID.Namespace
    }

    static func kind(
        _ name: String, context: String, title: String, schema: String, keyPrefix: String,
        _ namespace: SyntheticID.Namespace
    ) -> TaskKind {
        TaskKind(
            name: bytes(name), context: bytes(context), snapshot: field("{\"title\":\"\(title)\"}"),
            actionSchema: field(schema), keyPrefix: bytes(keyPrefix + ":"), namespace: namespace)
    }

    static let workout = kind(
        "WORKOUT", context: "workout", title: "Full body, light",
        schema: "{\"route\":\"workout\",\"quick_complete\":false}",
        keyPrefix: "workout_log", .assignment)
    static let meals: [TaskKind] = [
        kind(
            "MEAL", context: "meal", title: "Breakfast", schema: "{\"route\":\"nutrition\",\"quick_complete\":true}",
            keyPrefix: "meal", .mealPlan),
        kind(
            "MEAL", context: "meal", title: "Lunch", schema: "{\"route\":\"nutrition\",\"quick_complete\":true}",
            keyPrefix: "meal", .mealPlan),
        kind(
            "MEAL", context: "meal", title: "Dinner", schema: "{\"route\":\"nutrition\",\"quick_complete\":true}",
            keyPrefix: "meal", .mealPlan),
    ]
    static let mealSlots: [[UInt8]] = [bytes("breakfast"), bytes("lunch"), bytes("dinner")]
    static let checkIn = kind(
        "CHECK_IN", context: "check_in", title: "Daily check-in",
        schema: "{\"route\":\"form\",\"quick_complete\":false}",
        keyPrefix: "checkin", .checkInForm)
    static let water = kind(
        "HABIT", context: "habit", title: "Drink 8 glasses of water",
        schema: "{\"value_capture\":{\"mode\":\"ACCUMULATE\",\"target\":8,\"unit\":\"glass\"}}", keyPrefix: "habit",
        .habit)
    static let supplement = kind(
        "SUPPLEMENT", context: "supplement", title: "Vitamin D",
        schema: "{\"route\":\"supplement\",\"quick_complete\":true}",
        keyPrefix: "supplement", .supplement)
    static let measurement = kind(
        "MEASUREMENT", context: "measurement", title: "Weigh-in",
        schema: "{\"route\":\"measurement\",\"metric\":\"body_mass\"}",
        keyPrefix: "measurement", .measurement)
    static let reminder = kind(
        "REMINDER", context: "reminder", title: "Remember: protein with every meal", schema: "{\"informational\":true}",
        keyPrefix: "reminder", .reminder)
    /// A kind the pipeline does not know yet (scored like HABIT).
    static let breathwork = kind(
        "BREATHWORK", context: "breathwork", title: "Box breathing, 5 min", schema: "{\"route\":\"breathwork\"}",
        keyPrefix: "breathwork", .breathwork)

    static let sourceType = bytes("plan")
    static let colon = bytes(":")

    // Statuses.
    static let pending = bytes("PENDING")
    static let inProgress = bytes("IN_PROGRESS")
    static let completed = bytes("COMPLETED")
    static let skipped = bytes("SKIPPED")
    static let missed = bytes("MISSED")
    static let canceled = bytes("CANCELED")
    static let superseded = bytes("SUPERSEDED")
    /// Not a status: a row the pipeline must reject.
    static let unknownStatus = bytes("DONE")
    static let accepted = bytes("ACCEPTED")
    static let rejected = bytes("REJECTED")

    static let skipReasons: [(reason: [UInt8], weight: Int)] = [
        (bytes("NO_TIME"), 60), (bytes("OTHER"), 18), (bytes("PAIN"), 8), (bytes("INJURY"), 5), (bytes("TRAVEL"), 9),
    ]
    static let skipNotes: [[UInt8]] = [
        field("Knee hurts, resting today"), field("Back-to-back meetings"), field("Travelling, no gym"),
        field("Felt \"off\", will try tomorrow"),
    ]
    static let metadataPrefix = bytes("\"{\"\"app_version\"\":\"\"3.4.1\"\",\"\"tz\"\":\"\"")
    static let metadataSuffix = bytes("\"\"}\"")
    static let missedJobMetadata = field("{\"job\":\"nightly_missed\"}")

    static let cardSnapshots: [[UInt8]] = [
        field("{\"title\":\"Remember: protein with every meal\",\"body\":\"private text\"}"),
        field("{\"title\":\"Hydrate, 8 glasses\",\"body\":\"private text\"}"),
        field("{\"title\":\"Sleep before 23:00\",\"body\":\"private text\"}"),
    ]
    static let cardKeyPrefix = bytes("coach_reminder:")

    // Relationship and subject words.
    static let active = bytes("ACTIVE")
    static let paused = bytes("PAUSED")
    static let ended = bytes("ENDED")
    static let signup = bytes("signup")
    static let deviceChange = bytes("device")
    static let confirmed = bytes("CONFIRMED")
    static let suggested = bytes("SUGGESTED")
    static let localJournal = bytes("LOCAL_JOURNAL")
    static let appleHealth = bytes("APPLE_HEALTH")
    static let energy = bytes("energy_kcal")
    static let protein = bytes("protein_g")
    static let steps = bytes("steps")
    static let waterMetric = bytes("water_ml")

    // Journal.
    struct Recipe: Sendable {
        var title: [UInt8]
        /// Per serving, tenths of a unit; -1 = NULL.
        var energy: Int, protein: Int, carbs: Int, fat: Int
    }

    static let recipes: [Recipe] = [
        Recipe(title: field("Greek yogurt, honey & walnuts"), energy: 3500, protein: 200, carbs: 320, fat: 150),
        Recipe(title: field("Eggs on toast"), energy: 3800, protein: 220, carbs: 300, fat: 180),
        Recipe(title: field("Soba, cold"), energy: 4100, protein: 150, carbs: 800, fat: 30),
        Recipe(title: field("Chili con carne, extra \"hot\""), energy: 7200, protein: 450, carbs: 600, fat: 300),
        Recipe(title: field("Tofu stir-fry, peanut sauce"), energy: 6500, protein: 300, carbs: 580, fat: 300),
        Recipe(title: field("Oatmeal with berries"), energy: 3100, protein: 110, carbs: 540, fat: 60),
        Recipe(title: field("Chicken salad"), energy: 4200, protein: 380, carbs: 120, fat: 220),
        Recipe(title: field("Yogurt, small"), energy: -1, protein: 90, carbs: 180, fat: 40),
        Recipe(title: field("Dal with rice"), energy: 5600, protein: 190, carbs: 880, fat: 120),
        Recipe(title: field("Salmon, potatoes, greens"), energy: 6100, protein: 380, carbs: 420, fat: 280),
        Recipe(title: field("Protein shake"), energy: 1800, protein: 300, carbs: 60, fat: -1),
        Recipe(title: field("Pasta pomodoro"), energy: 5900, protein: 180, carbs: 980, fat: 110),
        Recipe(title: field("Banana"), energy: 1050, protein: 13, carbs: 270, fat: 4),
        Recipe(title: field("Sushi bento"), energy: 6400, protein: 260, carbs: 950, fat: 140),
        Recipe(title: field("Burrito bowl"), energy: 6800, protein: 320, carbs: 820, fat: 220),
        Recipe(title: field("Pho"), energy: 4500, protein: 280, carbs: 600, fat: 90),
    ]
    /// `portion` spellings: NULL (1.0), 1, 1.0, 0.5, 1.5, 2.
    static let portions: [(text: [UInt8], tenths: Int)] = [
        ([], 10), (bytes("1"), 10), (bytes("1.0"), 10), (bytes("0.5"), 5), (bytes("1.5"), 15), (bytes("2"), 20),
    ]
    static let notDeleted: [[UInt8]] = [bytes("f"), bytes("false"), bytes("0"), []]
    static let deleted: [[UInt8]] = [bytes("t"), bytes("true"), bytes("1")]

    // Health.
    static let stepType = bytes("HKQuantityTypeIdentifierStepCount")
    static let waterType = bytes("HKQuantityTypeIdentifierDietaryWater")
    static let bodyMassType = bytes("HKQuantityTypeIdentifierBodyMass")
    static let energyType = bytes("HKQuantityTypeIdentifierDietaryEnergyConsumed")
    static let proteinType = bytes("HKQuantityTypeIdentifierDietaryProtein")
    static let sleepType = bytes("HKCategoryTypeIdentifierSleepAnalysis")
    static let sleepValue = bytes("HKCategoryValueSleepAnalysisAsleepCore")
    static let count = bytes("count")
    static let milliliters = bytes("mL")
    static let liters = bytes("L")
    static let fluidOunces = bytes("fl_oz_us")
    static let kilograms = bytes("kg")
    static let pounds = bytes("lb")
    static let kilocalories = bytes("kcal")
    static let grams = bytes("g")
    static let iPhoneSuffix = bytes(" iPhone")
    static let watchSuffix = bytes(" Watch")
    static let bundlePrefix = bytes("com.apple.health.")
    static let watchBundlePrefix = bytes("com.apple.health.watch.")
    static let iPhoneModel = field("iPhone15,2")
    static let watchModel = field("Watch7,1")
    static let scaleSource = bytes("Renpho,com.renpho.health")
    static let nutritionSource = bytes("MyFitnessPal,com.myfitnesspal.mfp")
    /// The platform's own journal written back to Health (a `self_sources` entry).
    static let selfSource = bytes("dayfold,com.dayfold.app")
}
