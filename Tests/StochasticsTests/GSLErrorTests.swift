import Testing
@testable import Stochastics

/// GSL's abort-on-error handler is off: a call GSL rejects returns to Swift instead of ending the process.
@Suite("GSL error handling")
struct GSLErrorTests {
    @Test("gsl_rng_memcpy between a taus2 and an mt19937 generator throws GSLError(GSL_EINVAL) instead of aborting")
    func memcpyMismatchThrows() {
        let taus = GSLGenerator(taus2State: 1, 2, 3)
        let mt = GSLGenerator(kind: .mt19937, seed: 5)
        #expect(mt.name == "mt19937")
        do {
            try taus.copyState(from: mt)
            Issue.record("expected GSLError")
        } catch {
            #expect(error.code == GSLError.invalidArgumentCode)
            #expect(error.function == "gsl_rng_memcpy")
            #expect(error.reason == "invalid argument supplied by user")
        }
        // Same kind works.
        let other = GSLGenerator(taus2State: 7, 8, 9)
        #expect(throws: Never.self) { try taus.copyState(from: other) }
        #expect(taus.nextRaw() == other.nextRaw())
    }

    @Test("gsl_ran_discrete_preproc with a negative weight reports through GSLError (GSL itself rejects it)")
    func discretePreprocRejects() {
        #expect(throws: GSLError.self) { try GSLDiscreteTable(weights: [1, -2, 3]) }
    }

    @Test("Out-of-domain quantiles return NaN or ±∞ (no abort)")
    func quantileDomain() {
        #expect(InverseCDF.standardNormal(1.5).isNaN)
        #expect(InverseCDF.standardNormal(1) == .infinity)
        #expect(InverseCDF.studentT(0, degreesOfFreedom: 5) == -.infinity)
        #expect(!InverseCDF.chiSquared(-0.5, degreesOfFreedom: 3).isFinite)
    }

    @Test("GSLError text speaks GSL's words")
    func description() {
        let e = GSLError(code: GSLError.domainErrorCode, function: "gsl_example")
        #expect(e.description == "gsl_example failed: input domain error (GSL status 1)")
    }
}
