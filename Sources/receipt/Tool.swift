import Foundation
import VerifyCommandCore

enum Tool {
    static let usage = """
        usage: receipt verify FILE [--policy appstore|xcode] [--root CERT]... [--bundle-id ID]
                              [--app-version V] [--device-guid HEX] [--at now|receipt|RFC3339] [--json]
               receipt decode FILE [--json]
               receipt dump FILE [--strict]
               receipt jwt --key FILE --key-id KID --issuer ISSUER_ID --bundle-id BID [--audience AUD]
                           [--issued-at SECONDS] [--lifetime SECONDS]
               receipt offer-signature --key FILE --key-id KID --bundle-id BID --product PID --offer OFFER_ID
                           --app-account-token UUID|'' --nonce UUID --timestamp MS
               receipt offer-jws promotional-offer|introductory-eligibility|advanced-commerce --key FILE
                           --key-id KID --issuer ISSUER_ID --bundle-id BID [--issued-at SECONDS]
                           promotional-offer: --product-id PID --offer-identifier OFFER_ID [--transaction-id TID]
                           introductory-eligibility: --product-id PID --allow-introductory-offer true|false
                                                     --transaction-id TID
                           advanced-commerce: --request-json FILE
        FILE is binary DER/BER, base64 text, or - for standard input; verify and decode also take
        StoreKit 2 signed data (a compact JWS, text starting eyJ): --at defaults to its signedDate;
        and iOS 6 transaction receipts (the { "signature" = …; } text or its base64): --at
        defaults to their purchase date.
        jwt, offer-signature and offer-jws sign with an App Store Connect key (--key: the .p8
        file, or any P-256 key in PKCS#8 or SEC 1, PEM or DER) and print one line: the App Store
        Server API token, the promotional offer signature (base64 DER), or the compact JWS.
        """

    /// Runs one command line; never traps on any input.
    static func run(_ arguments: [String]) -> ExitStatus {
        guard let command = arguments.first else {
            Output.error("missing command: verify, decode, dump, jwt, offer-signature or offer-jws (receipt --help shows the usage)")
            return .usage
        }
        if command == "verify" { return verify(Array(arguments.dropFirst())) }
        do {
            var options = try Options(Array(arguments.dropFirst()))
            switch command {
            case "decode": try DecodeCommand.run(&options)
            case "dump": try DumpCommand.run(&options)
            case "jwt": try SigningCommands.jwt(&options)
            case "offer-signature": try SigningCommands.offerSignature(&options)
            case "offer-jws": try SigningCommands.offerJWS(&options)
            case "-h", "--help", "help":
                Output.write(usage + "\n")
                return .success
            default:
                throw ToolFailure.usage(
                    "unknown command '\(command)': verify, decode, dump, jwt, offer-signature or offer-jws (receipt --help shows the usage)")
            }
            return .success
        } catch let failure as ToolFailure {
            Output.error(failure.message)
            return failure.status
        } catch {
            Output.error("\(error)")
            return .malformed
        }
    }

    /// `receipt verify`: the Foundation-free command (VerifyCommandCore, which the WebAssembly
    /// module runs too), given the clock and the files.
    static func verify(_ arguments: [String]) -> ExitStatus {
        let nowMilliseconds = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let result = VerifyCommand.run(arguments, nowMilliseconds: nowMilliseconds, read: Input.contents)
        Output.write(result.standardOutput)
        if !result.standardError.isEmpty { Output.errorLine(result.standardError) }
        return result.status
    }
}
