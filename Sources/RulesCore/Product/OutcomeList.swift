/// An append-only list that is emptied in O(1) and keeps its storage: the lists of a `ScrollOffOutcome`, which a
/// simulation reuses for millions of engine calls.
///
/// `removeAll()` only resets the count; the elements beyond it stay allocated and are overwritten by later
/// appends, so emptying never walks or frees the elements (an `Array`'s `removeAll(keepingCapacity:)` destroys
/// each one). It reads like an array: a random-access collection, comparable with array literals.
public struct OutcomeList<Element>: RandomAccessCollection, ExpressibleByArrayLiteral {
    @usableFromInline var storage: [Element] = []
    @usableFromInline var used = 0
    /// Number of elements in the list.
    @inlinable public var count: Int { used }

    /// An empty list.
    @inlinable public init() {}

    /// A list holding the given elements.
    public init(arrayLiteral elements: Element...) { storage = elements; used = elements.count }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { used }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }
    @inlinable public func index(_ i: Int, offsetBy distance: Int) -> Int { i + distance }
    @inlinable public func distance(from start: Int, to end: Int) -> Int { end - start }
    public typealias Indices = Range<Int>
    @inlinable public var indices: Range<Int> { 0..<used }

    @inlinable public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < used, "OutcomeList index \(position) out of range 0..<\(used)")
        return storage[position]
    }

    /// Appends an element, reusing a slot left by an earlier `removeAll()` when there is one.
    @inlinable public mutating func append(_ element: Element) {
        if used < storage.count { storage[used] = element } else { storage.append(element) }
        used += 1
    }

    /// Empties the list in O(1), keeping its storage.
    @inlinable public mutating func removeAll() { used = 0 }

    /// The elements as an array.
    public var array: [Element] { Array(storage[0..<count]) }
}

extension OutcomeList: Equatable where Element: Equatable {
    public static func == (a: OutcomeList, b: OutcomeList) -> Bool { a.elementsEqual(b) }
}

extension OutcomeList: Hashable where Element: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for e in self { hasher.combine(e) }
    }
}

extension OutcomeList: Sendable where Element: Sendable {}

extension OutcomeList: CustomStringConvertible {
    public var description: String { array.description }
}
