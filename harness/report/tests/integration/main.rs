//! The report crate's integration tests, as one test binary: the survey's pages rendered
//! from a survey run here ([`survey`]), its tables as CSV ([`tables`]) and its figures
//! as SVG ([`figures`]).

mod figures;
mod survey;
mod tables;
