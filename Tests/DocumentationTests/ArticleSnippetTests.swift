import Foundation
import Testing

/// The articles' Swift code is the code these tests compile and run: every ```swift block of every
/// page in a documentation catalog (Sources/*/*.docc) must appear, line for line, in one file of
/// Tests/DocumentationTests/Articles. Edit the code there, then copy it into the article.
@Suite struct ArticleSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let libraryModules = ["DER", "CryptoPrimitives", "X509Certificates", "PKCS7", "AppReceipt", "AppStoreJWS", "LegacyReceipt"]

    /// Every `.md` file of every catalog.
    static func pages() throws -> [URL] {
        let sources = root.appendingPathComponent("Sources")
        var pages: [URL] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
            guard let files = FileManager.default.enumerator(atPath: catalog.path) else { continue }
            for case let file as String in files where file.hasSuffix(".md") {
                pages.append(catalog.appendingPathComponent(file))
            }
        }
        return pages
    }

    /// The lines of each ```swift block.
    static func swiftBlocks(_ text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]? = nil
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    static func trimmed(_ line: String) -> String {
        String(line.reversed().drop(while: { $0 == " " }).reversed())
    }

    @Test func everyLibraryModuleHasACatalogWithALandingPage() throws {
        for module in Self.libraryModules {
            let page = Self.root.appendingPathComponent("Sources/\(module)/\(module).docc/\(module).md")
            let text = try String(contentsOf: page, encoding: .utf8)
            #expect(text.hasPrefix("# ``\(module)``"), "\(page.path)")
            #expect(text.contains("## Topics"), "\(page.path)")
        }
    }

    @Test func everySwiftBlockIsCodeTheTestsRun() throws {
        let articles = Self.root.appendingPathComponent("Tests/DocumentationTests/Articles")
        let sources = try FileManager.default.contentsOfDirectory(atPath: articles.path).filter { $0.hasSuffix(".swift") }.map {
            try String(contentsOf: articles.appendingPathComponent($0), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map { Self.trimmed(String($0)) }
        }
        var blockCount = 0
        for page in try Self.pages() {
            for block in Self.swiftBlocks(try String(contentsOf: page, encoding: .utf8)) {
                blockCount += 1
                let lines = block.map(Self.trimmed)
                let found = sources.contains { source in
                    source.count >= lines.count && (0 ... source.count - lines.count).contains { Array(source[$0 ..< $0 + lines.count]) == lines }
                }
                #expect(found, "\(page.lastPathComponent): this block is not in Tests/DocumentationTests/Articles:\n\(block.joined(separator: "\n"))")
            }
        }
        #expect(blockCount > 0)
    }
}
