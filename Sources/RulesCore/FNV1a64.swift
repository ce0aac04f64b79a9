/// FNV-1a, 64-bit: a small, stable, non-cryptographic hash (no CryptoKit on Linux).
public enum FNV1a64 {
    /// The hash of a string's UTF-8 bytes.
    public static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    /// The hash as 16 lower-case hex digits.
    public static func hex(_ text: String) -> String {
        let s = String(hash(text), radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
