import Foundation
import Hummingbird

/// The gateway's routes.
enum GatewayRouter {
    /// What `/products/{id}` answers: the catalog's product with the price service's price, or
    /// with `price` null and the reason when only the price service failed.
    struct ProductAnswer: ResponseEncodable {
        var id: String
        var name: String
        var price: Double?
        var priceUnavailable: String?
    }

    struct Failure: ResponseEncodable {
        var error: String
    }

    static func make(upstreams: Upstreams) -> Router<BasicRequestContext> {
        let router = Router()
        // A server span per request; the session's calls to the upstreams are its children
        // and carry its trace to them (`traceparent`) once the program bootstraps a tracer.
        router.add(middleware: TracingMiddleware())
        router.get("health") { _, _ in "ok" }
        router.get("products/:id") { request, context -> Response in
            let id = try context.parameters.require("id")
            // Both upstreams at once; a failing price service leaves the answer without a price.
            async let price = upstreams.priceOrFailure(id)
            let product: Upstreams.Product
            do {
                product = try await upstreams.product(id)
            } catch {
                _ = await price
                let failure = UpstreamFailure(error)
                var response = try Failure(error: failure.reason).response(from: request, context: context)
                response.status = .init(code: failure.status)
                if let seconds = failure.retryAfter { response.headers[.retryAfter] = String(seconds) }
                return response
            }
            var answer = ProductAnswer(id: product.id, name: product.name)
            switch await price {
            case .success(let found): answer.price = found.price
            case .failure(let error): answer.priceUnavailable = UpstreamFailure(error).reason
            }
            return try answer.response(from: request, context: context)
        }
        return router
    }
}
