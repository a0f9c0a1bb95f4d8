// `receipt`: verify, decode and dump App Store receipts and other DER/BER files; sign the App
// Store Server API token and the offer signatures with an App Store Connect key.
// Exit status: 0 success, 1 verification failed, 2 malformed input, 64 usage error.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let status = Tool.run(arguments)
Output.flush()
exit(status.rawValue)
