import NIOCore

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        self = nanoseconds.overflow ? .nanoseconds(.max) : .nanoseconds(nanoseconds.partialValue + attoseconds / 1_000_000_000)
    }
}
