import SlidegateFuzz
import Testing

/// Each target over its kept inputs: the seeds, and every input that once broke a property
/// (a crash `./dev fuzz` found is copied into fuzz/corpus/TARGET and stays here).
@Suite struct FuzzCorpusTests {
    static let corpus = String(#filePath.dropLast("Tests/SlidegateFuzzTests/FuzzCorpusTests.swift".count)) + "fuzz/corpus/"

    @Test(arguments: FuzzTarget.allCases)
    func theSeedsHoldTheProperties(target: FuzzTarget) {
        #expect(target.seeds.count >= 3)
        for (index, seed) in target.seeds.enumerated() {
            #expect(throws: Never.self, "seed \(index)") { try target.run(seed) }
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyKeptInputHoldsItsProperties(target: FuzzTarget) throws {
        for path in FuzzCorpus.files(in: Self.corpus + target.rawValue) {
            let bytes = try #require(FuzzCorpus.read(path), "\(path) can be read")
            #expect(throws: Never.self, "\(path)") { try target.run(bytes) }
        }
    }
}
