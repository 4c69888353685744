import Foundation
import Testing

@testable import DayfoldCore

/// Short plain decimals skip strtod: the value must still be strtod's to
/// the last bit (sums and Progress values are written from it).
@Suite struct NumberParsingTests {
    /// What a field means as a number: strtod's value of plain decimal
    /// syntax (digits, point, sign, exponent), nothing else ("inf", hex, spaces).
    func strtodValue(_ text: String) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ "0123456789.+-eE".contains($0) }) else { return nil }
        return text.withCString { base -> Double? in
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(base, &end)
            guard let end, end == UnsafeMutablePointer(mutating: base) + text.utf8.count, value.isFinite else {
                return nil
            }
            return value
        }
    }

    func parsed(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        return parseDouble(bytes, 0, bytes.count)
    }

    /// Random decimals of 1–17 digits with the point anywhere (the fast
    /// path's limit is 15): same bits as strtod, sign of zero included.
    @Test func shortDecimalsMatchStrtodBitForBit() {
        var generator = ParquetTestRandom(state: 11)
        for _ in 0..<200_000 {
            let digitCount = Int.random(in: 1...17, using: &generator)
            var digits = (0..<digitCount).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) }
            if Bool.random(using: &generator) {
                digits.insert(".", at: Int.random(in: 0...digitCount, using: &generator))
            }
            let sign = ["", "-", "+"][Int.random(in: 0...2, using: &generator)]
            let text = sign + String(digits)
            let expected = strtodValue(text)
            let actual = parsed(text)
            #expect(actual?.bitPattern == expected?.bitPattern, "\(text)")
        }
    }

    /// Values whose correct rounding a naive digit-by-digit sum gets wrong,
    /// zeros, and the shapes both paths must agree on.
    @Test func edgeCasesMatchStrtod() {
        let texts = [
            "0", "-0", "+0", "0.0", "-0.0", "1.", ".5", "-.5", "+.5", "0.1", "0.3", "2.675", "1.005",
            "9007199254740993", "123456789012345", "1234567890123456", "0.000000000000001", "999999999999999",
            "99999999999999.9", "1e5", "1E-3", "-2.5e+3", "12e", "1.2.3", "--1", "+-1", ".", "-", "+", "1,5",
            "0x1p3", "inf", "nan", "1 ", " 1", "",
        ]
        for text in texts {
            #expect(parsed(text)?.bitPattern == strtodValue(text)?.bitPattern, "\(text)")
        }
        #expect(parsed("-0")?.sign == .minus)
        #expect(parsed("0.1") == 0.1)
        #expect(parsed("1.5e") == nil)
        #expect(parsed("") == nil)
    }
}
