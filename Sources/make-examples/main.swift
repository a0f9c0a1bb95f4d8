// Writes the committed samples under Examples/: a synthetic receipt with a few in-app purchases,
// signed by the test chain, and that chain's root certificate. Deterministic (RSA PKCS#1 v1.5
// signatures are), so `swift run make-examples` reproduces the committed bytes exactly; a test
// checks that they still agree.
import Foundation
import ReceiptTestSupport

let directory = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Examples"
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
for sample in ExampleSamples.all {
    let path = directory + "/" + sample.name
    try Data(sample.bytes).write(to: URL(fileURLWithPath: path))
    print("wrote \(path) (\(sample.bytes.count) bytes)")
}
