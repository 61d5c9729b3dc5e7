// swift-tools-version:6.0
import PackageDescription

// The programs use neither Swift concurrency nor regular expressions: without the implicit
// imports they do not load libswift_Concurrency, libdispatch, libBlocksRuntime,
// libswift_StringProcessing and libswift_RegexParser (less to map at start, less PSS).
let lean: [SwiftSetting] = [
    .unsafeFlags([
        "-Xfrontend", "-disable-implicit-concurrency-module-import", "-Xfrontend", "-disable-implicit-string-processing-module-import",
    ])
]

// Each program's code is linked (with lld) in the order of linker/*.order: what a resting
// lock runs first, together, then what a drag adds (scripts/hot-functions.py writes the
// lists). The kernel maps code in 64 KiB windows around each page touched, so a resting lock
// whose functions lie scattered keeps a window mapped per function; together, a few.
let packageDirectory = String(#filePath.dropLast("Package.swift".count))

func codeOrder(_ list: String) -> LinkerSetting {
    .unsafeFlags([
        "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(packageDirectory)linker/\(list).order", "-Xlinker", "--no-warn-symbol-ordering",
    ])
}

// slidegate-ui takes the C++ runtime (which the static Swift runtime needs) from its archive:
// linker/static-c++ holds a libstdc++.so that is a linker script naming libstdc++.a, found
// before the shared one. A lock's UI then maps and relocates one large library fewer as it
// starts (about 0.9 ms of its start-up here). The unwinder that runtime brings comes from
// libgcc's archive too (-static-libgcc), so libgcc_s is not mapped either (0.1 ms).
let staticCxx = LinkerSetting.unsafeFlags(["-L\(packageDirectory)linker/static-c++", "-Xclang-linker", "-static-libgcc"])

// How the dynamic programs (slidegate-ui, slidegate-auth) are linked to start with less work:
// - RandR, Xinerama and the screen saver extension (SlidegateXlib's, so both programs'), and
//   the `archives` a program adds (the UI: Present and Xlib's XCB connection), come from
//   their archives (-l:lib….a, in the same -dev packages), with libXrender, which libXrandr's
//   archive calls and cairo loads anyway: five small shared libraries fewer for a lock's UI
//   to map and relocate as it starts. No C module links them; the guard links them as it
//   links all, static.
// - --no-export-dynamic undoes the -export-dynamic of the Swift driver's static-stdlib
//   arguments, which is for plug-ins: none of these programs loads one, and the UI exported
//   3,200 symbols for the dynamic loader's tables.
// - -z pack-relative-relocs: the UI's 17,000 relative relocations take 3 KiB (DT_RELR, glibc
//   2.36) instead of 410 KiB for the dynamic loader to read at each start.
// Together: `slidegate-ui --version` faults in 489 pages instead of 541 here, and takes about
// 1 ms less CPU (medians of 40 runs). Linked with lld, as the UI's code order is (gold knows
// no pack-relative-relocs).
func dynamicProgram(archives: [String] = []) -> LinkerSetting {
    .unsafeFlags(
        ["-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
            + (["Xrandr", "Xinerama", "Xss"] + archives).flatMap { ["-Xlinker", "-l:lib\($0).a"] } + ["-lXrender"])
}

let package = Package(
    name: "slidegate",
    products: [
        .executable(name: "slidegate", targets: ["slidegate"]),
        .executable(name: "slidegate-ui", targets: ["slidegate-ui"]),
        .executable(name: "slidegate-auth", targets: ["slidegate-auth"]),
    ],
    targets: [
        .systemLibrary(name: "CX11", pkgConfig: "x11", providers: [.apt(["libx11-dev", "libxrandr-dev", "libxinerama-dev", "libxi-dev", "libxext-dev", "libxcomposite-dev"])]),
        .systemLibrary(name: "CXScreenSaver"),
        .systemLibrary(name: "CPAM", pkgConfig: "pam", providers: [.apt(["libpam0g-dev"])]),
        .systemLibrary(name: "CCrypt", pkgConfig: "libxcrypt", providers: [.apt(["libcrypt-dev"])]),
        .systemLibrary(name: "CXTest", pkgConfig: "xtst", providers: [.apt(["libxtst-dev"])]),
        .systemLibrary(
            name: "CGraphics",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "libpixman-1-dev"])]
        ),
        // gdk-pixbuf, loaded by the UI when it first reads an `--image` (libgdk-pixbuf-2.0-0).
        .target(name: "CPixbuf"),
        .target(name: "CXShim", dependencies: ["CX11"], linkerSettings: [.linkedLibrary("m")]),
        // The Present extension (frames queued for a vertical blank), on Xlib's XCB connection;
        // the UI's alone (libxcb-present-dev, libx11-xcb-dev), which links both from their archives.
        .target(name: "CPresent", dependencies: ["CX11"], linkerSettings: [.linkedLibrary("xcb")]),
        // Pure Swift: the gate, layout, options. No C module.
        .target(name: "SlidegateCore", swiftSettings: lean, linkerSettings: [.linkedLibrary("m")]),
        // Cairo and Pango: paints a Scene.
        .target(name: "SlidegateRender", dependencies: ["SlidegateCore", "CGraphics"], swiftSettings: lean),
        // The guard<->UI protocol: framing and every message kind (documented at its top).
        .target(name: "SlidegateProtocol", dependencies: ["SlidegateCore"], swiftSettings: lean),
        // Xlib and system pieces both processes use: the connection, the event loop, file
        // descriptors and protocol channels, signals, child processes, screen blanking.
        .target(
            name: "SlidegateXlib", dependencies: ["SlidegateCore", "SlidegateProtocol", "CX11", "CXShim", "CXScreenSaver"],
            swiftSettings: lean),
        // The lock-mode guard: grabs, cover, input, supervision of its children; Xlib only.
        .target(
            name: "SlidegateGuard", dependencies: ["SlidegateCore", "SlidegateProtocol", "SlidegateXlib", "CX11", "CXShim"],
            swiftSettings: lean),
        // What draws: windowed mode, and the lock-mode UI inside the guard's window.
        .target(
            name: "SlidegateUI",
            dependencies: [
                "SlidegateCore", "SlidegateProtocol", "SlidegateRender", "SlidegateXlib", "CX11", "CXShim", "CGraphics", "CPixbuf",
                "CPresent",
            ],
            swiftSettings: lean
        ),
        // The guard is one static executable: nothing to load at start (it locks in a few
        // milliseconds) and nothing LD_PRELOAD can slip into it.
        .executableTarget(
            name: "slidegate", dependencies: ["SlidegateCore", "SlidegateXlib", "SlidegateGuard"], swiftSettings: lean,
            linkerSettings: [
                .unsafeFlags(["-static-executable"]), codeOrder("guard"),
                // Static libraries, each before the ones it uses.
                .linkedLibrary("Xrandr"), .linkedLibrary("Xinerama"), .linkedLibrary("Xi"), .linkedLibrary("Xcomposite"), .linkedLibrary("Xfixes"),
                .linkedLibrary("Xss"), .linkedLibrary("Xrender"), .linkedLibrary("Xext"),
                .linkedLibrary("X11"), .linkedLibrary("xcb"), .linkedLibrary("Xau"), .linkedLibrary("Xdmcp"),
                .linkedLibrary("bsd"), .linkedLibrary("md"),
            ]
        ),
        .executableTarget(
            name: "slidegate-ui", dependencies: ["SlidegateCore", "SlidegateXlib", "SlidegateUI"], swiftSettings: lean,
            linkerSettings: [codeOrder("ui"), staticCxx, dynamicProgram(archives: ["xcb-present", "X11-xcb"])]),
        // Checks answers with PAM, and PINs with libxcrypt, for the guard; the only program
        // that loads PAM modules. Also writes the PIN file (`slidegate --set-pin`).
        .executableTarget(
            name: "slidegate-auth",
            dependencies: ["SlidegateCore", "SlidegateProtocol", "SlidegateXlib", "CPAM", "CCrypt", "CXShim"], swiftSettings: lean,
            linkerSettings: [dynamicProgram()]),
        // The fuzz targets over the decoders, parsers and gate, and the program that runs them
        // (with libFuzzer: ./dev fuzz; plainly: over files). Pure Swift.
        .target(name: "SlidegateFuzz", dependencies: ["SlidegateCore", "SlidegateProtocol"], swiftSettings: lean),
        .executableTarget(name: "slidegate-fuzz", dependencies: ["SlidegateFuzz"], swiftSettings: lean),
        // Writes what is made from the option table (the shell completions): ./dev docs.
        .executableTarget(name: "slidegate-docs", dependencies: ["SlidegateCore"], swiftSettings: lean),
        // A test target per room: Core (the gate, options, the guard's jobs as types),
        // Protocol, Xlib (its pure parts), Render (golden images), the fuzz corpus, end to end.
        .testTarget(name: "SlidegateCoreTests", dependencies: ["SlidegateCore"]),
        .testTarget(name: "SlidegateProtocolTests", dependencies: ["SlidegateCore", "SlidegateProtocol"]),
        // The tests link SlidegateXlib's X libraries as shared ones.
        .testTarget(
            name: "SlidegateXlibTests", dependencies: ["SlidegateXlib"],
            linkerSettings: [.linkedLibrary("Xrandr"), .linkedLibrary("Xinerama"), .linkedLibrary("Xss")]),
        // Every kept fuzz input (fuzz/corpus) through its target again.
        .testTarget(name: "SlidegateFuzzTests", dependencies: ["SlidegateFuzz"]),
        .testTarget(
            name: "SlidegateRenderTests",
            dependencies: ["SlidegateCore", "SlidegateRender", "SlidegateXlib", "CGraphics"],
            exclude: ["Goldens"]
        ),
        // Runs the built slidegate and slidegate-ui (`swift build` first; ./dev test does).
        .testTarget(
            name: "SlidegateEndToEndTests",
            dependencies: ["CX11", "CXShim", "CXTest"],
            exclude: ["xorg-dummy.conf"],
            linkerSettings: [.linkedLibrary("Xi"), .linkedLibrary("Xcomposite"), .linkedLibrary("Xfixes")]
        ),
    ]
)
