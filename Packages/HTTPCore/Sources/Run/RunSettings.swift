/// What a call starts from: the request and the options. A cycle holds one and hands each of
/// its calls a copy.
struct RunSettings {
    var request: HTTPRequest
    var options: HTTPRequestOptions
    /// What the call returns: the body in memory, as a stream, or in a file.
    var delivery: ResponseDelivery = .memory
    /// The fields credential processors set while the request was prepared; `nil` for none,
    /// which costs a call no reference to count.
    var credentialFields: [String]?
}
