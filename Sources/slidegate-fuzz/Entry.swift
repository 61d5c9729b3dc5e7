import Glibc
import SlidegateFuzz

// slidegate-fuzz: the fuzz targets (SlidegateFuzz) as one program. Built with libFuzzer
// (`./dev fuzz`: -sanitize=fuzzer,address -DFUZZING), it fuzzes the target that
// SLIDEGATE_FUZZ_TARGET names; built plainly, it runs files through a target:
// `slidegate-fuzz TARGET FILE...` (exit 1 on the first property broken), and writes the
// seeds: `slidegate-fuzz --seeds DIR`.

#if FUZZING
nonisolated(unsafe) var target = FuzzTarget.decoders

/// libFuzzer's entry for a program with a main of its own.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

@main
enum Fuzz {
    static func main() {
        let name = getenv("SLIDEGATE_FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard let chosen = FuzzTarget(rawValue: name) else {
            say("slidegate-fuzz: SLIDEGATE_FUZZ_TARGET: expected one of \(FuzzTarget.allCases.map(\.rawValue)), got \"\(name)\"")
            exit(2)
        }
        target = chosen
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runDriver(&argc, &argv, testOneInput))
    }
}

/// One input through the chosen target; a broken property is a crash libFuzzer keeps.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try target.run(bytes)
    } catch {
        say("slidegate-fuzz: \(target.rawValue): \(error)")
        abort()
    }
    return 0
}
#else
@main
enum Replay {
    /// `--seeds DIR`: each target's seeds as DIR/TARGET/seed-N, for libFuzzer to start from.
    static func writeSeeds(to directory: String) -> Never {
        for target in FuzzTarget.allCases {
            let folder = directory + "/" + target.rawValue
            mkdir(directory, 0o755)
            mkdir(folder, 0o755)
            for (index, seed) in target.seeds.enumerated() {
                guard let file = fopen("\(folder)/seed-\(index)", "we"), fwrite(seed, 1, seed.count, file) == seed.count, fclose(file) == 0
                else {
                    say("slidegate-fuzz: cannot write \(folder)/seed-\(index)")
                    exit(1)
                }
            }
        }
        exit(0)
    }

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.count == 2 && arguments[0] == "--seeds" { writeSeeds(to: arguments[1]) }
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            say("usage: slidegate-fuzz TARGET FILE...  (TARGET: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))")
            exit(2)
        }
        for path in arguments.dropFirst() {
            guard let bytes = FuzzCorpus.read(path) else {
                say("slidegate-fuzz: \(path): cannot be read")
                exit(2)
            }
            do {
                try target.run(bytes)
            } catch {
                say("slidegate-fuzz: \(path): \(error)")
                exit(1)
            }
        }
    }
}
#endif
