import Foundation
import Testing

/// The finding of issue 33, replayed: the app sets `appAccountToken` at purchase time, so a client
/// can put a victim's token on its own purchases. An answer asked by transaction id is the
/// original transaction's family alone (DESIGN §13): the attacker's consumable does not show the
/// victim's subscription, and the attacker's refunded subscription does not revoke the victim's.
/// Both backends.
@Suite struct AccountTokenLinksNothingTests {
    typealias N = SyntheticNotifications
    typealias S = SignedAPIData
    static let victimToken = "5f0c6b1e-3d4a-4e8b-9c2d-7a1b0e9f8d76"
    static let victim = "6000", attackerConsumable = "7000", attackerSubscription = "7100"

    @Test(arguments: TestDatabase.backends)
    func aChosenTokenWidensNoAnswer(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await APISession.with(database) { api in
            let now = APISession.now
            let victim = S.transaction(
                N.Transaction(
                    transactionId: Self.victim, originalTransactionId: Self.victim, purchaseDate: now - S.day, expiresDate: now + 29 * S.day,
                    signedDate: now - 60_000), ["appAccountToken": Self.victimToken])
            try await api.notify(S.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signedDate: now - 60_000, transaction: victim))
            // The attacker's consumable and refunded subscription, both carrying the victim's token.
            let consumable = S.transaction(
                N.Transaction(
                    transactionId: Self.attackerConsumable, originalTransactionId: Self.attackerConsumable, productId: "com.example.coins",
                    purchaseDate: now - S.day, expiresDate: 0, signedDate: now - 50_000),
                ["type": "Consumable", "expiresDate": nil, "subscriptionGroupIdentifier": nil, "appAccountToken": Self.victimToken])
            _ = try await api.post("/inApps/v1/transactions", S.posted(consumable)).ok()
            let refunded = S.transaction(
                N.Transaction(
                    transactionId: Self.attackerSubscription, originalTransactionId: Self.attackerSubscription, purchaseDate: now - S.day,
                    expiresDate: now + 29 * S.day, signedDate: now - 40_000, revocationDate: now - 40_000, revocationReason: 0),
                ["appAccountToken": Self.victimToken])
            try await api.notify(S.notification("REFUND", signedDate: now - 40_000, transaction: refunded))

            // The attacker's consumable shows no subscription, and its history only itself.
            #expect(try await api.statuses(Self.attackerConsumable).items.isEmpty)
            #expect(S.ids(try await api.allHistory(Self.attackerConsumable).tokens) == [Self.attackerConsumable])
            // The victim's subscription is active (1), alone, with no refund.
            let victimStatus = try await api.statuses(Self.victim).items
            #expect(victimStatus.map(\.status) == [1] && victimStatus.map(\.transaction) == [victim])
            #expect(S.ids(try await api.allHistory(Self.victim).tokens) == [Self.victim])
            let refunds = try await api.get("/inApps/v2/refund/lookup/\(Self.victim)").ok()
            #expect((refunds["signedTransactions"] as? [String])?.isEmpty == true)
            // The attacker's own subscription is revoked (5), and only its own.
            let attackerStatus = try await api.statuses(Self.attackerSubscription).items
            #expect(attackerStatus.map(\.status) == [5] && attackerStatus.map(\.original) == [Self.attackerSubscription])
        }
    }
}
