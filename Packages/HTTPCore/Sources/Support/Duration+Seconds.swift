extension Duration {
    /// The duration in seconds, as Foundation's time intervals and rates count.
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
