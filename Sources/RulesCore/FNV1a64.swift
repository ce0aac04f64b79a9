/// FNV-1a, 64-bit: a small, stable, non-cryptographic hash (no CryptoKit on Linux).
public enum FNV1a64 {
    /// The hash of a string's UTF-8 bytes.
    public static func hash(_ text: String) -> UInt64 { hash(bytes: text.utf8) }

    /// The hash of bytes (the same as `hash(_:)` of the string whose UTF-8 they are).
    public static func hash<Bytes: Sequence>(bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        hash(bytes: bytes, continuing: offsetBasis)
    }

    /// The FNV-1a 64 offset basis: the hash of no bytes.
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of bytes following those whose hash is `h` (the hash of the two runs of bytes one after the other).
    public static func hash<Bytes: Sequence>(bytes: Bytes, continuing h: UInt64) -> UInt64 where Bytes.Element == UInt8 {
        // Contiguous bytes (an array, `Data`, a slice of either) through a pointer: a third of the instructions of
        // the element-by-element iterator, which `Data` pays per byte (issue 30: a shard merge hashes every record).
        if let hashed = bytes.withContiguousStorageIfAvailable({ buffer -> UInt64 in
            var h = h
            for byte in buffer {
                h ^= UInt64(byte)
                h = h &* 0x0000_0100_0000_01b3
            }
            return h
        }) { return hashed }
        var h = h
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    /// The hash as 16 lower-case hex digits.
    public static func hex(_ text: String) -> String { hex(hash(text)) }

    /// The hash of bytes as 16 lower-case hex digits.
    public static func hex<Bytes: Sequence>(bytes: Bytes) -> String where Bytes.Element == UInt8 { hex(hash(bytes: bytes)) }

    public static func hex(_ h: UInt64) -> String {
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
