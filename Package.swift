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

// How the programs are linked, and why: docs/PERFORMANCE.md, "How the programs are linked".
let packageDirectory = String(#filePath.dropLast("Package.swift".count))

func codeOrder(_ list: String) -> LinkerSetting {
    .unsafeFlags([
        "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(packageDirectory)linker/\(list).order", "-Xlinker", "--no-warn-symbol-ordering",
    ])
}

// The UI's C++ runtime and unwinder from their archives (linker/static-c++).
let staticCxx = LinkerSetting.unsafeFlags(["-L\(packageDirectory)linker/static-c++", "-Xclang-linker", "-static-libgcc"])

// The dynamic programs (slidegate-ui, slidegate-auth): no exported symbols, packed relative
// relocations; the UI's small X libraries from their archives (the auth helper links no X).
func dynamicProgram(xArchives: [String] = []) -> LinkerSetting {
    .unsafeFlags(
        ["-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
            + xArchives.flatMap { ["-Xlinker", "-l:lib\($0).a"] } + (xArchives.isEmpty ? [] : ["-lXrender"]))
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
        // sd-bus from libsystemd (libsystemd0), loaded by the UI when a glance or control first
        // opens a bus (--show-media, --show-battery, --power-actions).
        .target(name: "CBus"),
        // speech-dispatcher's client library (libspeechd2), loaded by the UI with --speak.
        .target(name: "CSpeech", linkerSettings: [.linkedLibrary("pthread")]),
        .target(name: "CXShim", dependencies: ["CX11"]),
        .target(name: "CSystem", linkerSettings: [.linkedLibrary("m")]),
        // The Present extension (frames queued for a vertical blank), on Xlib's XCB connection;
        // the UI's alone (libxcb-present-dev, libx11-xcb-dev), which links both from their archives.
        .target(name: "CPresent", dependencies: ["CX11"], linkerSettings: [.linkedLibrary("xcb")]),
        // The guard's copy of the screen for `--image desktop` (XRender through XCB).
        .target(name: "CScreenCopy", dependencies: ["CX11"]),
        // Pure Swift: the gate, layout, options. No C module.
        // Optimized in debug builds too: the tests run the programs built so, and the
        // desktop's blur, unoptimized, keeps the drawing program from answering the guard.
        .target(
            name: "SlidegateCore", swiftSettings: lean + [.unsafeFlags(["-O"], .when(configuration: .debug))],
            linkerSettings: [.linkedLibrary("m")]),
        // Cairo and Pango: paints a Scene.
        .target(name: "SlidegateRender", dependencies: ["SlidegateCore", "CGraphics"], swiftSettings: lean),
        // The guard<->UI protocol: framing and every message kind (documented at its top).
        .target(name: "SlidegateProtocol", dependencies: ["SlidegateCore"], swiftSettings: lean),
        // The system room: file descriptors and message channels, child processes, signals,
        // secret buffers, file access, the clocks. No X.
        .target(name: "SlidegateSystem", dependencies: ["SlidegateCore", "SlidegateProtocol", "CSystem"], swiftSettings: lean),
        // The host room: the decider's host (GateHost), the helpers it talks to and their
        // supervisor. It reaches the X server only through HostServer and DescriptorWatcher.
        .target(name: "SlidegateHost", dependencies: ["SlidegateCore", "SlidegateProtocol", "SlidegateSystem"], swiftSettings: lean),
        // The X room both processes use: the connection, the event loop, input read from X
        // events, keyboard layouts, screen blanking.
        .target(
            name: "SlidegateXlib", dependencies: ["SlidegateCore", "SlidegateSystem", "SlidegateHost", "CX11", "CXShim", "CXScreenSaver"],
            swiftSettings: lean),
        // The lock-mode guard: grabs, cover, input, supervision of its children; Xlib only.
        .target(
            name: "SlidegateGuard",
            dependencies: ["SlidegateCore", "SlidegateProtocol", "SlidegateSystem", "SlidegateHost", "SlidegateXlib", "CX11", "CXShim", "CSystem",
                "CScreenCopy",
            ],
            swiftSettings: lean),
        // What draws: windowed mode, and the lock-mode UI inside the guard's window.
        .target(
            name: "SlidegateUI",
            dependencies: [
                "SlidegateCore", "SlidegateProtocol", "SlidegateRender", "SlidegateSystem", "SlidegateHost", "SlidegateXlib", "CX11",
                "CXShim", "CSystem", "CGraphics", "CPixbuf", "CPresent", "CBus", "CSpeech",
            ],
            swiftSettings: lean
        ),
        // The guard is one static executable: nothing to load at start (it locks in a few
        // milliseconds) and nothing LD_PRELOAD can slip into it.
        .executableTarget(
            name: "slidegate", dependencies: ["SlidegateCore", "SlidegateSystem", "SlidegateXlib", "SlidegateGuard"], swiftSettings: lean,
            linkerSettings: [
                .unsafeFlags(["-static-executable"]), codeOrder("guard"),
                // Static libraries, each before the ones it uses.
                .linkedLibrary("Xrandr"), .linkedLibrary("Xinerama"), .linkedLibrary("Xi"), .linkedLibrary("Xcomposite"), .linkedLibrary("Xfixes"),
                .linkedLibrary("Xss"), .linkedLibrary("Xrender"), .linkedLibrary("Xext"), .linkedLibrary("X11-xcb"),
                .linkedLibrary("X11"), .linkedLibrary("xcb-render"), .linkedLibrary("xcb"), .linkedLibrary("Xau"), .linkedLibrary("Xdmcp"),
                .linkedLibrary("bsd"), .linkedLibrary("md"),
            ]
        ),
        .executableTarget(
            name: "slidegate-ui", dependencies: ["SlidegateCore", "SlidegateSystem", "SlidegateXlib", "SlidegateUI"], swiftSettings: lean,
            linkerSettings: [codeOrder("ui"), staticCxx, dynamicProgram(xArchives: ["Xrandr", "Xinerama", "Xss", "xcb-present", "X11-xcb"])]),
        // Checks answers with PAM, and PINs with libxcrypt, for the guard; the only program
        // that loads PAM modules. Also writes the PIN file (`slidegate --set-pin`).
        .executableTarget(
            name: "slidegate-auth",
            dependencies: ["SlidegateCore", "SlidegateProtocol", "SlidegateSystem", "CPAM", "CCrypt", "CSystem"], swiftSettings: lean,
            linkerSettings: [dynamicProgram()]),
        // The fuzz targets over the decoders, parsers and gate, and the program that runs them
        // (with libFuzzer: ./dev fuzz; plainly: over files). Pure Swift.
        .target(name: "SlidegateFuzz", dependencies: ["SlidegateCore", "SlidegateProtocol"], swiftSettings: lean),
        .executableTarget(name: "slidegate-fuzz", dependencies: ["SlidegateFuzz"], swiftSettings: lean),
        // Writes what is made from the option table (the shell completions): ./dev docs.
        .executableTarget(name: "slidegate-docs", dependencies: ["SlidegateCore"], swiftSettings: lean),
        // A test target per room: Core (the gate, options, the guard's jobs as types),
        // Protocol, System, Host (the decider's host and the helper supervisor with stand-ins,
        // no X linked), Xlib (its pure parts), Render (golden images), the fuzz corpus, end to end.
        .testTarget(name: "SlidegateCoreTests", dependencies: ["SlidegateCore"]),
        .testTarget(name: "SlidegateProtocolTests", dependencies: ["SlidegateCore", "SlidegateProtocol"]),
        .testTarget(name: "SlidegateSystemTests", dependencies: ["SlidegateSystem"]),
        .testTarget(name: "SlidegateHostTests", dependencies: ["SlidegateHost", "SlidegateSystem"]),
        // The tests link SlidegateXlib's X libraries as shared ones.
        .testTarget(
            name: "SlidegateXlibTests", dependencies: ["SlidegateXlib", "SlidegateSystem", "CScreenCopy"],
            linkerSettings: [
                .linkedLibrary("Xrandr"), .linkedLibrary("Xinerama"), .linkedLibrary("Xss"), .linkedLibrary("X11-xcb"), .linkedLibrary("xcb-render"),
                .linkedLibrary("xcb"),
            ]),
        // Every kept fuzz input (fuzz/corpus) through its target again.
        .testTarget(name: "SlidegateFuzzTests", dependencies: ["SlidegateFuzz"]),
        .testTarget(
            name: "SlidegateRenderTests",
            dependencies: ["SlidegateCore", "SlidegateRender", "SlidegateSystem", "CGraphics"],
            exclude: ["Goldens"]
        ),
        // Runs the built slidegate and slidegate-ui (`swift build` first; ./dev test does).
        .testTarget(
            name: "SlidegateEndToEndTests",
            dependencies: ["CX11", "CXShim", "CXTest", "CXScreenSaver"],
            exclude: ["xorg-dummy.conf"],
            linkerSettings: [.linkedLibrary("Xi"), .linkedLibrary("Xcomposite"), .linkedLibrary("Xfixes"), .linkedLibrary("Xss")]
        ),
    ]
)
