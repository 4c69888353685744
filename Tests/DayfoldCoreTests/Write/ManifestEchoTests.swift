import Foundation
import Testing

@testable import DayfoldCore

/// Names echoed from an input into the manifest are cut to 64 bytes (at a
/// character boundary) and escaped (SPEC §10), so a file's first line
/// cannot be copied out through `unknown_columns`.
@Suite struct ManifestEchoTests {
    @Test(arguments: [
        (String(repeating: "a", count: 100), String(repeating: "a", count: 64)),
        (String(repeating: "é", count: 40), String(repeating: "é", count: 32)),
        ("a" + String(repeating: "é", count: 40), "a" + String(repeating: "é", count: 31)),
        ("short", "short"),
    ])
    func echoedNamesAreCutTo64BytesOnACharacterBoundary(name: String, echoed: String) {
        #expect(Manifest.echoed(name) == echoed)
        #expect(Manifest.echoed(name).utf8.count <= 64)
    }

    @Test func controlCharactersAreWrittenAsHexEscapes() {
        #expect(jsonString("a\u{1B}[31m\u{0}\u{7F}\u{85}") == "\"a\\u001B[31m\\u0000\\u007F\\u0085\"")
        #expect(jsonString("tab\tline\n") == "\"tab\\tline\\n\"")
    }

    /// A header line 200 bytes long with an ESC in its unknown column: the
    /// manifest lists the column cut to 64 bytes, its ESC escaped.
    @Test func unknownColumnsInTheManifestAreCutAndEscaped() throws {
        let long = "x\u{1B}" + String(repeating: "p", count: 200)
        let drop = try HandMadeDrop([
            "subjects/relationships.csv": "relationship_id,client_user_id,\(long)\nr1,u1,z\n"
        ])
        defer { drop.remove() }
        let run = try drop.run(asOf: "2026-03-10T12:00:00Z")
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = try Data(contentsOf: drop.output.appendingPathComponent("manifest.json"))
        #expect(!bytes.contains(0x1B))
        let manifest = try JSONSerialization.jsonObject(with: bytes) as? [String: Any]
        let inputs = manifest?["inputs"] as? [[String: Any]] ?? []
        let columns = inputs.first?["unknown_columns"] as? [String]
        #expect(columns == ["x\u{1B}" + String(repeating: "p", count: 62)])
    }
}
