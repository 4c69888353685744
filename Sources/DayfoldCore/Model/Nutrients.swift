/// energy_kcal, protein_g, carbs_g, fat_g of one day from one source; nil
/// (NULL) where no record gave a value. Four values held in place: as an
/// array, every client day and health day allocated two or one of them,
/// and each copy of a day retained them.
public struct Nutrients: Sendable, Equatable {
    private var energy: Double?
    private var protein: Double?
    private var carbs: Double?
    private var fat: Double?

    public init() {}

    /// 0 energy_kcal, 1 protein_g, 2 carbs_g, 3 fat_g.
    public subscript(index: Int) -> Double? {
        get {
            switch index {
            case 0: return energy
            case 1: return protein
            case 2: return carbs
            default:
                precondition(index == 3, "nutrient index out of range")
                return fat
            }
        }
        set {
            switch index {
            case 0: energy = newValue
            case 1: protein = newValue
            case 2: carbs = newValue
            default:
                precondition(index == 3, "nutrient index out of range")
                fat = newValue
            }
        }
    }
}
