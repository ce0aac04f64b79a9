@testable import Stochastics

/// Pearson correlation of two equally long samples.
func correlation(_ x: [Double], _ y: [Double]) -> Double {
    let mx = x.reduce(0, +) / Double(x.count), my = y.reduce(0, +) / Double(y.count)
    var sxy = 0.0, sxx = 0.0, syy = 0.0
    for i in x.indices {
        sxy += (x[i] - mx) * (y[i] - my)
        sxx += (x[i] - mx) * (x[i] - mx)
        syy += (y[i] - my) * (y[i] - my)
    }
    return sxy / (sxx * syy).squareRoot()
}
