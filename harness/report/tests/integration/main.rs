//! The report crate's integration tests, as one test binary: the survey's pages rendered
//! from a survey run here ([`survey`]).

mod survey;
