/// The earliest of some times that may each be absent, kept as they are offered: the
/// programs' loops ask it for their next deadline every pass, so it builds no array.
package struct Earliest {
    package private(set) var time: Double?

    package init() {}

    package mutating func consider(_ t: Double?) {
        if let t, time.map({ t < $0 }) ?? true { time = t }
    }
}
