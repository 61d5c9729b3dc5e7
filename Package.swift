// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "slidegate",
    products: [
        .executable(name: "slidegate", targets: ["slidegate"])
    ],
    targets: [
        .systemLibrary(
            name: "CX11",
            pkgConfig: "x11",
            providers: [.apt(["libx11-dev", "libxrandr-dev"])]
        ),
        .systemLibrary(name: "CXTest", pkgConfig: "xtst", providers: [.apt(["libxtst-dev"])]),
        .systemLibrary(
            name: "CGraphics",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        .target(name: "CXShim", dependencies: ["CX11"], linkerSettings: [.linkedLibrary("m")]),
        .target(name: "SlidegateCore", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "SlidegateRender", dependencies: ["SlidegateCore", "CGraphics"]),
        .target(name: "SlidegateX11", dependencies: ["SlidegateCore", "SlidegateRender", "CX11", "CXShim", "CGraphics"]),
        .executableTarget(name: "slidegate", dependencies: ["SlidegateCore", "SlidegateX11"]),
        .testTarget(name: "SlidegateCoreTests", dependencies: ["SlidegateCore"]),
        .testTarget(
            name: "SlidegateRenderTests",
            dependencies: ["SlidegateCore", "SlidegateRender", "CGraphics"],
            exclude: ["Goldens"]
        ),
        .testTarget(
            name: "SlidegateEndToEndTests",
            dependencies: ["slidegate", "CX11", "CXShim", "CXTest"]
        ),
    ]
)
