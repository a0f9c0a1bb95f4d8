/// The switches a program's refusal advice names, as that program spells them.
///
/// The library states the facts: which anchors a policy trusts, which embedded anchor a refused
/// chain ends at, whether the operator's own certificates replaced the policy's anchors, which
/// origin signed data that a policy for the other world refused. The program that prints the
/// advice supplies the words for what its user types, so no library module names a program's
/// options. Only the programs define values: the `receipt` tool (`VerifyCommandCore`) and
/// receipt-server, each with its own root switch and its own advice for data of the other origin.
public struct HintSwitches: Sendable {
    /// The switch that replaces a policy's embedded anchors with the operator's own certificates,
    /// as a hint names them: "the ROOT certificate SHA-256 1a2b3c4d…, which replaces Apple's root
    /// certificate".
    public var root: String
    /// What the user does to run the program again with other switches, completing "it ends at
    /// Apple Root CA: RERUN without ROOT to trust it" (the tool verifies, the server is started).
    public var rerun: String
    /// The switch that judges certificates at the data's own creation date, as the advice for a
    /// certificate judged expired now names it ("SWITCH judges them at the receipt's creation
    /// date"); `nil` for a program that never judges at the current time.
    public var judgeAtCreation: String?
    /// The advice for data of `origin` (`data` says what it is: "receipt", "token") that a policy
    /// for the other world refused, naming the switch that chooses the policy of that origin.
    public var otherOrigin: @Sendable (_ origin: SignerOrigin, _ data: String) -> String

    /// The switches of a program: its `root` switch, how it is run again (`rerun`), the switch
    /// that judges at the creation date (`judgeAtCreation`), and its advice for data of the
    /// other origin.
    public init(
        root: String, rerun: String, judgeAtCreation: String?,
        otherOrigin: @escaping @Sendable (_ origin: SignerOrigin, _ data: String) -> String
    ) {
        self.root = root
        self.rerun = rerun
        self.judgeAtCreation = judgeAtCreation
        self.otherOrigin = otherOrigin
    }
}
