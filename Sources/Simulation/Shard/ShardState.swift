import Foundation
import Reports
import RulesCore

/// The mergeable state of one shard (`habitat run --shard K/N`), in `shard-state.jsonl` beside the shard folder's
/// `manifest.json`: a versioned, self-describing JSON Lines file.
///
/// Line 1 is the `ShardStateHeader` (format, version, Habitat version and commit, scenario hash, shard, the person-id
/// block of every arm); then one line per arm and replication, in the order a whole run simulates them
/// (replication 1's arms in scenario order, then replication 2's, …), each a `ShardRecord`: its identity (shard,
/// arm, replication, person range), a seal over identity and figures, and the accumulator of every report of that
/// arm and replication over the shard's people. Every accumulator merges exactly (integer counts,
/// fixed-point sums), so folding the shards' records gives the bits a whole run computes, in any grouping.
public enum ShardState {
    /// The state file's name in a shard folder.
    public static let fileName = "shard-state.jsonl"
    /// The `format` field of the header.
    public static let format = "habitat-shard-state"
    /// The version this Habitat writes and reads; a change to any accumulator's encoding bumps it.
    public static let formatVersion = 10   // 2: accumulators carry `decisions` (issue 25); 3: `learning` and new decision kinds (issue 26); 4: revenue cells carry `cost` (issue 27); 5: `comparison` and neutral learning columns (issue 28); 6: things to do in `comparison` (issue 29); 7: a record carries its shard, arm name and person range, and its seal covers them with its accumulator (issue 30); 8: funnel stages on their own basis, the `settings_upgrade` decision and the `type_off` outcome (issue 38); 9: retention's `in_use` reading (was `product_in_use`), and `comparison` carries app-opened retention and days in use / app opened (issue 39); 10: decisions and the neutral measures sparse and by id — a list of the kinds counted, each with its outcomes by id, and `comparison`'s `measures` by id —, so a product's new decision kind or a process's new neutral measure no longer changes the format (issue 42)
}

/// The first line of `shard-state.jsonl`.
public struct ShardStateHeader: Codable, Sendable, Equatable {
    /// The person-id block of one arm.
    public struct ArmBlock: Codable, Sendable, Equatable {
        public var name: String
        /// People in the whole arm.
        public var installs: Int
        /// The shard's ids: `from ..< to`.
        public var from: Int
        public var to: Int
    }

    public var format = ShardState.format
    public var formatVersion = ShardState.formatVersion
    public var toolVersion = ToolInfo.version
    public var gitCommit = ToolInfo.gitCommit
    public var product: String
    public var scenarioName: String
    public var scenarioHash: String
    public var shard: ShardSpec
    /// Replications per arm (every arm × replication has one record).
    public var replications: Int
    public var arms: [ArmBlock]

    enum CodingKeys: String, CodingKey {
        case format, product, shard, replications, arms
        case formatVersion = "format_version", toolVersion = "tool_version", gitCommit = "git_commit"
        case scenarioName = "scenario_name", scenarioHash = "scenario_hash"
    }

    public init(product: String, scenarioName: String, scenarioHash: String, shard: ShardSpec, replications: Int, arms: [ArmBlock]) {
        self.product = product
        self.scenarioName = scenarioName
        self.scenarioHash = scenarioHash
        self.shard = shard
        self.replications = replications
        self.arms = arms
    }

    /// Records that follow the header.
    public var recordCount: Int { replications * arms.count }
}

/// One arm and replication of a shard: its identity (shard, arm, replication, people), a seal and its accumulator.
///
/// A line is written as
/// `{"shard":"K/N","arm":A,"arm_name":"NAME","replication":R,"people":P,"from":F,"to":T,"seal":"H","accumulator":{…}}`:
/// shard K of N, the arm's 0-based index in scenario order and its name (a JSON string), the 1-based replication,
/// the people folded in and their ids `F ..< T` (`ShardSpec.people(of:)`), and `H`, the FNV-1a 64 hash (16 hex
/// digits) of the line's bytes before `,"seal":` followed by the accumulator's JSON bytes exactly as they stand in
/// the line. The seal covers the record's identity as well as its figures, so a record damaged, edited, moved to
/// another shard or swapped with another (labels and all) is refused rather than merged into plausible but wrong
/// reports (format version 7; up to 6 the checksum covered the accumulator alone).
///
/// The seal is no secret: whoever knows the algorithm can re-seal an edited record. What guards the merge against
/// a re-sealed forgery is that `habitat merge` also checks the identity against the shard's header and the record's
/// place, and every figure against the invariants of its accumulator (`ValidatedAccumulator`), so no forged number
/// crashes it or merges an impossible value. A record re-sealed with figures a run could have produced is beyond
/// any check of the file alone.
struct ShardRecord<Accumulator: Codable>: Codable {
    /// `K/N`.
    var shard: String
    /// 0-based arm index in scenario order.
    var arm: Int
    var armName: String
    /// 1-based replication.
    var replication: Int
    var people: Int
    /// The person ids `from ..< to`.
    var from: Int
    var to: Int
    var seal: String
    var accumulator: Accumulator

    enum CodingKeys: String, CodingKey {
        case shard, arm, replication, people, from, to, seal, accumulator
        case armName = "arm_name"
    }

    static var sealMarker: Data { Data(#","seal":""#.utf8) }
    static var accumulatorMarker: Data { Data(#"","accumulator":"#.utf8) }

    /// The line of one record (no newline).
    static func line(shard: ShardSpec, arm: Int, armName: String, replication: Int, people: Range<Int>, accumulator: Data) throws -> Data {
        var line = Data(#"{"shard":"\#(shard)","arm":\#(arm),"arm_name":"#.utf8)
        line.append(try JSONEncoder().encode(armName))
        line.append(Data(#","replication":\#(replication),"people":\#(people.count),"from":\#(people.lowerBound),"to":\#(people.upperBound)"#.utf8))
        let seal = FNV1a64.hash(bytes: accumulator, continuing: FNV1a64.hash(bytes: line))
        line.append(sealMarker)
        line.append(Data(FNV1a64.hex(seal).utf8))
        line.append(accumulatorMarker)
        line.append(accumulator)
        line.append(UInt8(ascii: "}"))
        return line
    }

    /// Whether the bytes of `line` before its seal, then its accumulator's, hash to the seal written between them —
    /// checked on the bytes, before the line is decoded.
    static func sealHolds(_ line: Data) -> Bool {
        guard let s = line.firstRange(of: sealMarker), line.last == UInt8(ascii: "}"),
              let a = line[s.upperBound...].firstRange(of: accumulatorMarker), a.upperBound < line.endIndex else { return false }
        let h = FNV1a64.hash(bytes: line[a.upperBound..<(line.endIndex - 1)], continuing: FNV1a64.hash(bytes: line[line.startIndex..<s.lowerBound]))
        return line[s.upperBound..<a.lowerBound].elementsEqual(FNV1a64.hex(h).utf8)
    }
}

/// Reads a JSON Lines file one line at a time (lines may be megabytes long), so merging N shards holds N records,
/// not N files.
///
/// The file is read in 1 MB chunks into one byte buffer; a line is found with `memchr` from a read offset and the
/// consumed front of the buffer is dropped only when more must be read, so each byte is scanned and copied a
/// bounded number of times (the first cut copied the rest of the buffer after every line: a tenth of a merge's
/// instructions, issue 30). A line longer than `maxLine` bytes is refused (`LineTooLong`) as soon as that many bytes
/// without a newline are buffered, so what is held is bounded by the limit, not by the file (issue 40).
public final class JSONLinesReader {
    /// A line over the reader's limit.
    public struct LineTooLong: Error, CustomStringConvertible {
        /// 1-based.
        public let line: Int
        public let maxLine: Int
        public var description: String {
            "line \(line) is longer than \(InputLimits.describe(maxLine)); allowed at most \(InputLimits.describe(maxLine)) a line"
        }
    }

    public let path: String
    public let maxLine: Int
    private let fd: Int32
    /// Storage: the bytes `0 ..< filled` are read and not yet dropped.
    private var buffer: [UInt8] = []
    private var filled = 0
    /// Where the next line starts in `buffer`.
    private var start = 0
    /// Bytes from `start` already known to hold no newline.
    private var scanned = 0
    private var atEnd = false
    /// Lines returned so far.
    public private(set) var lineNumber = 0

    /// Opens a regular file (`O_NONBLOCK`: a FIFO put there is refused, not waited on).
    /// - Throws: `FileSystemError` (no such file, not a regular file: `EINVAL`, or the system's reason).
    public init(path: String, maxLine: Int = InputLimits.shardStateLine) throws {
        self.path = path
        self.maxLine = maxLine
        let f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard f >= 0 else { throw FileSystemError(path: path, action: "read", code: errno) }
        var st = stat()
        guard fstat(f, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(f)
            throw FileSystemError(path: path, action: "read", code: EINVAL)
        }
        fd = f
    }

    deinit { close(fd) }

    /// The next line without its newline; nil at the end of the file.
    /// - Throws: `LineTooLong`; `FileSystemError` when the file cannot be read.
    public func next() throws -> Data? {
        while true {
            let from = start + scanned, count = filled - from
            let newline: Int? = count <= 0 ? nil : buffer.withUnsafeBufferPointer { b in
                memchr(b.baseAddress! + from, 10, count).map { UnsafeRawPointer(b.baseAddress!).distance(to: UnsafeRawPointer($0)) }
            }
            if let nl = newline {
                guard nl - start <= maxLine else { throw LineTooLong(line: lineNumber + 1, maxLine: maxLine) }
                let line = bytes(start, nl)
                start = nl + 1
                scanned = 0
                lineNumber += 1
                return line
            }
            scanned = filled - start
            guard scanned <= maxLine else { throw LineTooLong(line: lineNumber + 1, maxLine: maxLine) }
            if atEnd {
                guard scanned > 0 else { return nil }
                let line = bytes(start, filled)
                start = 0; filled = 0; scanned = 0
                lineNumber += 1
                return line
            }
            try readMore()
        }
    }

    /// `buffer[from ..< to]` as `Data`.
    private func bytes(_ from: Int, _ to: Int) -> Data {
        buffer.withUnsafeBytes { Data(bytes: $0.baseAddress! + from, count: to - from) }
    }

    /// Drops the bytes before `start`, makes room (never more than a line's limit and one read) and reads up to 1 MB.
    private func readMore() throws {
        if start > 0 {
            let keep = filled - start
            buffer.withUnsafeMutableBytes { b in _ = memmove(b.baseAddress!, b.baseAddress! + start, keep) }
            filled = keep
            start = 0
        }
        let want = min(1 << 20, maxLine + 1 - scanned)
        if buffer.count < filled + want {
            let capacity = min(max(filled + want, buffer.count * 2), maxLine + (1 << 20) + 1)
            var grown = [UInt8](repeating: 0, count: max(capacity, filled + want))
            if filled > 0 {
                grown.withUnsafeMutableBytes { g in buffer.withUnsafeBytes { b in _ = memcpy(g.baseAddress!, b.baseAddress!, filled) } }
            }
            buffer = grown
        }
        var n: Int
        repeat {
            n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, want) }
        } while n < 0 && (errno == EINTR || errno == EAGAIN)
        guard n >= 0 else { throw FileSystemError(path: path, action: "read", code: errno) }
        filled += n
        if n == 0 { atEnd = true }
    }
}
