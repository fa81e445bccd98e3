import Foundation
import TesseraCore
import TesseraTestSupport
import TesseraWebDriver

extension PaintBench {
    /// `--binary` and `versus` side by side: one stand-in server, a `tessera serve` and a browser each, the
    /// searches alternating between them (which side goes first swaps every search), then both rows and the
    /// median of the paired differences (docs/benchmarks.md, "paint").
    func paired(_ versus: String) async throws {
        let sides = try await withStandInsAndDriver { server, driver in
            try await withServer(standIns: server, prefetch: prefetch) { first in
                try await withServer(standIns: server, prefetch: prefetch, binary: versus) { second in
                    try await alternate([(binary, first), (versus, second)], driver: driver, server: server)
                }
            }
        }
        report(sides, reference: false)
        let differences = zip(sides[1].1, sides[0].1).compactMap { second, first in
            second.painted >= 0 && first.painted >= 0 ? second.painted - first.painted : nil
        }
        say(
            "paired (TESSERA_IMAGE_PREFETCH=\(prefetch)): the second minus the first, median of \(differences.count)"
                + " pairs: \(String(format: "%+.0f", median(differences))) ms")
    }

    private func alternate(
        _ servers: [(name: String, base: String)], driver: Chromedriver, server: StandInServer
    ) async throws -> [(String, [PaintSample])] {
        var browsers: [Browser] = []
        do {
            for (_, base) in servers {
                let browser = try await Browser.open(driver: driver, width: 1280, height: 800)
                browsers.append(browser)
                try await browser.go(to: base + "/")
                try await browser.execute(PaintProbe.install)
            }
            var samples: [[PaintSample]] = servers.map { _ in [] }
            for index in 0..<(searches + 2) {
                for side in index.isMultiple(of: 2) ? [0, 1] : [1, 0] {
                    let sample = try await search(browsers[side], "\(side) \(index)")
                    if index >= 2 { samples[side].append(sample) }
                    try await settle(server)
                }
            }
            for browser in browsers { try await browser.quit() }
            return zip(servers, samples).map { ($0.name, $1) }
        } catch {
            for browser in browsers { try? await browser.quit() }
            throw error
        }
    }
}
