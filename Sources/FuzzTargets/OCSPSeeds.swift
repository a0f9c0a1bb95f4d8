import CryptoPrimitives
import Foundation
import X509Certificates

/// The `ocsp` harness's seeds and the certificates they answer for: a throwaway EC P-256 PKI and
/// OpenSSL's responder's answers, made once with OpenSSL 3.0.19 (private keys discarded):
///
///     openssl req -new -x509 -key ca.key -subj "/CN=Fuzz OCSP CA" -days 36500 -extensions ca_ext …
///     openssl x509 -req … -set_serial 0x1001|0x1002|0x1003|0x2001 -days 36500 -extensions leaf_ext|responder_ext
///     index.txt: 1001 valid, 1002 revoked 2025-01-01 keyCompromise, 1003 absent
///     openssl ocsp -issuer ca.pem -cert LEAF.pem [-sha256] [-no_nonce] -reqout REQ
///     openssl ocsp -index index.txt -CA ca.pem -rsigner responder.pem|ca.pem -rkey … [-resp_key_id]
///         -reqin REQ -respout RESP -ndays 36000
///
/// and a bare `tryLater` response; the good leaf, with its authorityInfoAccess, is a seed too. Each answer is signed by the delegated responder (its
/// certificate included) or by the CA itself named by key hash; all verify at `time`.
enum OCSPSeeds {
    /// When the answers were made (seconds since 1970); they stay fresh for 36,000 days.
    static let time: Int64 = 1795793162

    static func bytes(_ base64: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: base64.split(separator: "\n").joined())!)
    }
    static let caCertificate = bytes(
        """
        MIIBdDCCARqgAwIBAgIUNQL6iQ8v9asTMk9rrofws2kfUYAwCgYIKoZIzj0EAwIwFzEVMBMGA1UEAwwMRnV6eiBPQ1NQIENB
        MCAXDTI2MTEyNzE1MjYwMloYDzIxMjYxMTAzMTUyNjAyWjAXMRUwEwYDVQQDDAxGdXp6IE9DU1AgQ0EwWTATBgcqhkjOPQIB
        BggqhkjOPQMBBwNCAAQxXNWCGYUcmuka3zAtp5Mmm3SuGikJ+ZjrStEWBb1TpYmHEYwgaEYAac1yGM5QtPTD/dBl3VOqSEtd
        vmQJ1TSeo0IwQDAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIBBjAdBgNVHQ4EFgQUsr8oQc3lSg+1Dc5XleHGumF+
        EE4wCgYIKoZIzj0EAwIDSAAwRQIgamMUqrdFa3TkNKFoHv4jkFnjmiTLIontywZ2kATCyH8CIQDI4bCTpsCfwSQwXFUl4Nkm
        1/t9TGCoBX3Nv83zawf4jg==
        """)
    static let goodCertificate = bytes(
        """
        MIIB5TCCAYugAwIBAgICEAEwCgYIKoZIzj0EAwIwFzEVMBMGA1UEAwwMRnV6eiBPQ1NQIENBMCAXDTI2MTEyNzE1MjYwMloY
        DzIxMjYxMTAzMTUyNjAyWjAUMRIwEAYDVQQDDAlHb29kIExlYWYwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATfXhFjUJ93
        IYKAh0UoxKvW1YjZE58lyzuNRIeFZLxdpK/fylR1K7nOg6so1znXSXXH5wD67OpTMTRFV5xF+ifwo4HHMIHEMAwGA1UdEwEB
        /wQCMAAwDgYDVR0PAQH/BAQDAgeAMGQGCCsGAQUFBwEBBFgwVjApBggrBgEFBQcwAYYdaHR0cDovL29jc3AuZXhhbXBsZS50
        ZXN0L29jc3AwKQYIKwYBBQUHMAKGHWh0dHA6Ly9jYS5leGFtcGxlLnRlc3QvY2EuY2VyMB0GA1UdDgQWBBSkUF+Zm0qetr59
        wzomGqZWeTksdjAfBgNVHSMEGDAWgBSyvyhBzeVKD7UNzleV4ca6YX4QTjAKBggqhkjOPQQDAgNIADBFAiATf3IntasLbW/8
        RvIISH8+g9k6PVTr9aOe9LeKwCGu9wIhAJ8FtoumR9LuEdfterstNmn2X5///KLY5Zebq+yrPjzw
        """)
    static let revokedCertificate = bytes(
        """
        MIIB6DCCAY6gAwIBAgICEAIwCgYIKoZIzj0EAwIwFzEVMBMGA1UEAwwMRnV6eiBPQ1NQIENBMCAXDTI2MTEyNzE1MjYwMloY
        DzIxMjYxMTAzMTUyNjAyWjAXMRUwEwYDVQQDDAxSZXZva2VkIExlYWYwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAT1hkin
        v4RikHA9AByYe287M8T9XxPanhlZhhd/cbgNy+tDcg0iCm30w0hlP2w+2S+/GOsLjPyzzWf4wSxfbmqyo4HHMIHEMAwGA1Ud
        EwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMGQGCCsGAQUFBwEBBFgwVjApBggrBgEFBQcwAYYdaHR0cDovL29jc3AuZXhhbXBs
        ZS50ZXN0L29jc3AwKQYIKwYBBQUHMAKGHWh0dHA6Ly9jYS5leGFtcGxlLnRlc3QvY2EuY2VyMB0GA1UdDgQWBBQ3CjJk0wpO
        Tyi/qUCXwsheRz8XHzAfBgNVHSMEGDAWgBSyvyhBzeVKD7UNzleV4ca6YX4QTjAKBggqhkjOPQQDAgNIADBFAiBGjZgvzP+N
        8CrfdOEySah3VkD+0u0y3JH0h0Isb5TBZAIhAI3xz2ptgshdgLW2t8Am8/m/uuMPa/kZAEU8gfq1pjUr
        """)
    static let unknownCertificate = bytes(
        """
        MIIB5zCCAY6gAwIBAgICEAMwCgYIKoZIzj0EAwIwFzEVMBMGA1UEAwwMRnV6eiBPQ1NQIENBMCAXDTI2MTEyNzE1MjYwMloY
        DzIxMjYxMTAzMTUyNjAyWjAXMRUwEwYDVQQDDAxVbmtub3duIExlYWYwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAR+8gmA
        IWR6wFwvxbwBQmTdJ6BrDXQNJ/xiM1q0koixM6jHvIopLn/VR5ZMIwn25oPFwmQ5XJlkbdai017duWu2o4HHMIHEMAwGA1Ud
        EwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMGQGCCsGAQUFBwEBBFgwVjApBggrBgEFBQcwAYYdaHR0cDovL29jc3AuZXhhbXBs
        ZS50ZXN0L29jc3AwKQYIKwYBBQUHMAKGHWh0dHA6Ly9jYS5leGFtcGxlLnRlc3QvY2EuY2VyMB0GA1UdDgQWBBTdldqHg2YJ
        1OR5STEro/FjT+R8RzAfBgNVHSMEGDAWgBSyvyhBzeVKD7UNzleV4ca6YX4QTjAKBggqhkjOPQQDAgNHADBEAiBMf8RYHUve
        XSxyF9fkxTtu8K+WegXzMPJCmhETPasqCgIgbIM1+J2eHqHe6ewvBWn8FriYCLZHMlzFckvsu2Nyb/8=
        """)
    /// The answers, by file name.
    static let responses: [(name: String, der: [UInt8])] = [
        (
            "good-delegated.der",
            bytes(
                """
                MIICrwoBAKCCAqgwggKkBgkrBgEFBQcwAQEEggKVMIICkTCBlaEbMBkxFzAVBgNVBAMMDk9DU1AgUmVzcG9uZGVyGA8yMDI2
                MTEyNzE1MjYwMlowZTBjMDswCQYFKw4DAhoFAAQUG3AaHEzDOQXJ0STQXW3jjHlPD94EFLK/KEHN5UoPtQ3OV5XhxrphfhBO
                AgIQAYAAGA8yMDI2MTEyNzE1MjYwMlqgERgPMjEyNTA2MjExNTI2MDJaMAoGCCqGSM49BAMCA0gAMEUCIAwGgQz3RHzsGTLW
                0sNm+EGJwe5NItP9/q6tL+SVoVxiAiEAy0Qju59x0KrWpDOjUwLhCGyfHj7aybPsQQX8q96t8MCgggGfMIIBmzCCAZcwggE9
                oAMCAQICAiABMAoGCCqGSM49BAMCMBcxFTATBgNVBAMMDEZ1enogT0NTUCBDQTAgFw0yNjExMjcxNTI2MDJaGA8yMTI2MTEw
                MzE1MjYwMlowGTEXMBUGA1UEAwwOT0NTUCBSZXNwb25kZXIwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARgs5AwMpZ9grQV
                IYbhaBsF7nz6CAFZch67kKbZLlmWyBQfvajeute62Hyj8kfRkgdODom5o04V4BtUkjX6XZBWo3UwczAMBgNVHRMBAf8EAjAA
                MA4GA1UdDwEB/wQEAwIHgDATBgNVHSUEDDAKBggrBgEFBQcDCTAdBgNVHQ4EFgQUIaZYCJ1Qwnl36YJIyb0Sz5ZIh9AwHwYD
                VR0jBBgwFoAUsr8oQc3lSg+1Dc5XleHGumF+EE4wCgYIKoZIzj0EAwIDSAAwRQIgf1glwUlPwiiYg3pYbaFLlPpyEabhpJQh
                ZSQaYxI7WQsCIQDEG+EEj28SZz3ZTuLQqEiCXoyUOIuKcRghNrR7AcuPMw==
                """)
        ),
        (
            "good-issuer-bykey.der",
            bytes(
                """
                MIICiAoBAKCCAoEwggJ9BgkrBgEFBQcwAQEEggJuMIICajCBkKIWBBSyvyhBzeVKD7UNzleV4ca6YX4QThgPMjAyNjExMjcx
                NTI2MDJaMGUwYzA7MAkGBSsOAwIaBQAEFBtwGhxMwzkFydEk0F1t44x5Tw/eBBSyvyhBzeVKD7UNzleV4ca6YX4QTgICEAGA
                ABgPMjAyNjExMjcxNTI2MDJaoBEYDzIxMjUwNjIxMTUyNjAyWjAKBggqhkjOPQQDAgNJADBGAiEArwIraRcM1MnpOPs5Q0iu
                PeGlxce4FlZIBsYJFtoAVm0CIQDDAk45tG4JfOdr2Fj9I95eV0JnxbnZO5W86P6znjDmQaCCAXwwggF4MIIBdDCCARqgAwIB
                AgIUNQL6iQ8v9asTMk9rrofws2kfUYAwCgYIKoZIzj0EAwIwFzEVMBMGA1UEAwwMRnV6eiBPQ1NQIENBMCAXDTI2MTEyNzE1
                MjYwMloYDzIxMjYxMTAzMTUyNjAyWjAXMRUwEwYDVQQDDAxGdXp6IE9DU1AgQ0EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNC
                AAQxXNWCGYUcmuka3zAtp5Mmm3SuGikJ+ZjrStEWBb1TpYmHEYwgaEYAac1yGM5QtPTD/dBl3VOqSEtdvmQJ1TSeo0IwQDAP
                BgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIBBjAdBgNVHQ4EFgQUsr8oQc3lSg+1Dc5XleHGumF+EE4wCgYIKoZIzj0E
                AwIDSAAwRQIgamMUqrdFa3TkNKFoHv4jkFnjmiTLIontywZ2kATCyH8CIQDI4bCTpsCfwSQwXFUl4Nkm1/t9TGCoBX3Nv83z
                awf4jg==
                """)
        ),
        (
            "revoked.der",
            bytes(
                """
                MIICxQoBAKCCAr4wggK6BgkrBgEFBQcwAQEEggKrMIICpzCBq6EbMBkxFzAVBgNVBAMMDk9DU1AgUmVzcG9uZGVyGA8yMDI2
                MTEyNzE1MjYwMlowezB5MDswCQYFKw4DAhoFAAQUG3AaHEzDOQXJ0STQXW3jjHlPD94EFLK/KEHN5UoPtQ3OV5XhxrphfhBO
                AgIQAqEWGA8yMDI1MDEwMTAwMDAwMFqgAwoBARgPMjAyNjExMjcxNTI2MDJaoBEYDzIxMjUwNjIxMTUyNjAyWjAKBggqhkjO
                PQQDAgNIADBFAiABfYtSgejt0cwdvKK0gC/2kp+JmtigTP+RALl7NIPofQIhAKFy4WEh2pTfiT8xCFFfGz3t7MzrCHdmMBRy
                XRxEc3yioIIBnzCCAZswggGXMIIBPaADAgECAgIgATAKBggqhkjOPQQDAjAXMRUwEwYDVQQDDAxGdXp6IE9DU1AgQ0EwIBcN
                MjYxMTI3MTUyNjAyWhgPMjEyNjExMDMxNTI2MDJaMBkxFzAVBgNVBAMMDk9DU1AgUmVzcG9uZGVyMFkwEwYHKoZIzj0CAQYI
                KoZIzj0DAQcDQgAEYLOQMDKWfYK0FSGG4WgbBe58+ggBWXIeu5Cm2S5ZlsgUH72o3rrXuth8o/JH0ZIHTg6JuaNOFeAbVJI1
                +l2QVqN1MHMwDAYDVR0TAQH/BAIwADAOBgNVHQ8BAf8EBAMCB4AwEwYDVR0lBAwwCgYIKwYBBQUHAwkwHQYDVR0OBBYEFCGm
                WAidUMJ5d+mCSMm9Es+WSIfQMB8GA1UdIwQYMBaAFLK/KEHN5UoPtQ3OV5XhxrphfhBOMAoGCCqGSM49BAMCA0gAMEUCIH9Y
                JcFJT8IomIN6WG2hS5T6chGm4aSUIWUkGmMSO1kLAiEAxBvhBI9vEmc92U7i0KhIgl6MlDiLinEYITa0ewHLjzM=
                """)
        ),
        (
            "unknown.der",
            bytes(
                """
                MIICsAoBAKCCAqkwggKlBgkrBgEFBQcwAQEEggKWMIICkjCBlaEbMBkxFzAVBgNVBAMMDk9DU1AgUmVzcG9uZGVyGA8yMDI2
                MTEyNzE1MjYwMlowZTBjMDswCQYFKw4DAhoFAAQUG3AaHEzDOQXJ0STQXW3jjHlPD94EFLK/KEHN5UoPtQ3OV5XhxrphfhBO
                AgIQA4IAGA8yMDI2MTEyNzE1MjYwMlqgERgPMjEyNTA2MjExNTI2MDJaMAoGCCqGSM49BAMCA0kAMEYCIQDY0YbcrA/aWL6t
                lpOiGpMkDTYi/nDfPhPWSZ7QeMUX9AIhAPPFy3WUhbzxnZfdRdX0IZvTYH4v7lJS+Jmf7qh7qduvoIIBnzCCAZswggGXMIIB
                PaADAgECAgIgATAKBggqhkjOPQQDAjAXMRUwEwYDVQQDDAxGdXp6IE9DU1AgQ0EwIBcNMjYxMTI3MTUyNjAyWhgPMjEyNjEx
                MDMxNTI2MDJaMBkxFzAVBgNVBAMMDk9DU1AgUmVzcG9uZGVyMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEYLOQMDKWfYK0
                FSGG4WgbBe58+ggBWXIeu5Cm2S5ZlsgUH72o3rrXuth8o/JH0ZIHTg6JuaNOFeAbVJI1+l2QVqN1MHMwDAYDVR0TAQH/BAIw
                ADAOBgNVHQ8BAf8EBAMCB4AwEwYDVR0lBAwwCgYIKwYBBQUHAwkwHQYDVR0OBBYEFCGmWAidUMJ5d+mCSMm9Es+WSIfQMB8G
                A1UdIwQYMBaAFLK/KEHN5UoPtQ3OV5XhxrphfhBOMAoGCCqGSM49BAMCA0gAMEUCIH9YJcFJT8IomIN6WG2hS5T6chGm4aSU
                IWUkGmMSO1kLAiEAxBvhBI9vEmc92U7i0KhIgl6MlDiLinEYITa0ewHLjzM=
                """)
        ),
        (
            "good-sha256-nonce.der",
            bytes(
                """
                MIIC8AoBAKCCAukwggLlBgkrBgEFBQcwAQEEggLWMIIC0jCB16EbMBkxFzAVBgNVBAMMDk9DU1AgUmVzcG9uZGVyGA8yMDI2
                MTEyNzE1MjYwMlowgYEwfzBXMA0GCWCGSAFlAwQCAQUABCAOL4kv9pSyVCKg7qBHGqJv4X4mbEXcT2rPQhMP5GpWFwQgT4vF
                0IBwdo5Qlxm3PbMAJU38JbkEs4wTTM9JFYwq12sCAhABgAAYDzIwMjYxMTI3MTUyNjAyWqARGA8yMTI1MDYyMTE1MjYwMlqh
                IzAhMB8GCSsGAQUFBzABAgQSBBB5tQ8MQIQjZokEliMZ/sHJMAoGCCqGSM49BAMCA0cAMEQCIBWGUi/zFHu7T/4K+glYEa7N
                65E2ZxXo6FieBhYU+vI5AiAMOXPX6IZbNe8nUQTS0UQTXa9mFFiNlFstp3j4Rpkvr6CCAZ8wggGbMIIBlzCCAT2gAwIBAgIC
                IAEwCgYIKoZIzj0EAwIwFzEVMBMGA1UEAwwMRnV6eiBPQ1NQIENBMCAXDTI2MTEyNzE1MjYwMloYDzIxMjYxMTAzMTUyNjAy
                WjAZMRcwFQYDVQQDDA5PQ1NQIFJlc3BvbmRlcjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABGCzkDAyln2CtBUhhuFoGwXu
                fPoIAVlyHruQptkuWZbIFB+9qN6617rYfKPyR9GSB04OibmjThXgG1SSNfpdkFajdTBzMAwGA1UdEwEB/wQCMAAwDgYDVR0P
                AQH/BAQDAgeAMBMGA1UdJQQMMAoGCCsGAQUFBwMJMB0GA1UdDgQWBBQhplgInVDCeXfpgkjJvRLPlkiH0DAfBgNVHSMEGDAW
                gBSyvyhBzeVKD7UNzleV4ca6YX4QTjAKBggqhkjOPQQDAgNIADBFAiB/WCXBSU/CKJiDelhtoUuU+nIRpuGklCFlJBpjEjtZ
                CwIhAMQb4QSPbxJnPdlO4tCoSIJejJQ4i4pxGCE2tHsBy48z
                """)
        ),
        ("try-later.der", [0x30, 0x03, 0x0A, 0x01, 0x03]),
    ]

    /// The CA and the three leaves it issued, parsed.
    static let issuer = try! Certificate(derEncoded: caCertificate)
    static let leaves = [goodCertificate, revokedCertificate, unknownCertificate].map { try! Certificate(derEncoded: $0) }

    /// SHA-256 of every seed's tbsResponseData: the only ones any key signed.
    static let signedTBS: Set<Digest> = Set(
        responses.compactMap { seed in
            guard let basic = (try? OCSPResponse(derEncoded: seed.der))?.basic else { return nil }
            return SHA256.hash(Array(seed.der[basic.tbsResponseDataRange]))
        })

    /// The seed corpus, `Fuzz/corpus/ocsp/`.
    static func corpus() -> [FuzzSeeds.File] {
        responses.map { FuzzSeeds.File(name: $0.name, bytes: $0.der) } + [FuzzSeeds.File(name: "good-leaf-aia.der", bytes: goodCertificate)]
    }
}
