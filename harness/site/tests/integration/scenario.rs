//! The scenario model in TOML (as the corpus will write it) and its validation.

use reptest_site::{Body, Fault, Redirect, Scenario};

#[test]
fn a_minimal_toml_scenario_has_the_defaults() {
    let scenario: Scenario = toml::from_str("").unwrap();
    assert_eq!(scenario.response.status, 200);
    assert_eq!(scenario.response.content_type, "text/plain");
    assert!(!scenario.response.gzip);
    assert!(scenario.response.body.is_empty());
    assert!(scenario.redirects.is_empty() && scenario.pages.is_empty());
    assert_eq!(scenario.fault, None);
}

#[test]
fn faults_and_redirects_read_from_toml() {
    let scenario: Scenario = toml::from_str(
        r#"
        fault = "never-completes"
        redirects = [{ status = 308 }, { cross_origin = true }]
        [response]
        status = 503
        body = { base64 = "AP8=" }
        "#,
    )
    .unwrap();
    assert_eq!(scenario.fault, Some(Fault::NeverCompletes));
    assert_eq!(
        scenario.redirects,
        [Redirect::new(308), Redirect::cross_origin(301)]
    );
    assert_eq!(scenario.response.body.as_bytes(), [0x00, 0xff]);
    for fault in ["connection-refused", "reset-mid-body"] {
        let scenario: Scenario = toml::from_str(&format!("fault = \"{fault}\"")).unwrap();
        assert!(scenario.fault.is_some());
    }
}

#[test]
fn scenarios_round_trip_through_toml() {
    let scenarios = [
        Scenario::new(200, "User-agent: *\nDisallow: /\n").with_pages(["/a", "/b?c"]),
        Scenario::new(404, vec![0xff, 0xfe, 0x00]).with_gzip(true),
        Scenario::new(200, "x")
            .with_redirects([Redirect::new(302), Redirect::cross_origin(307)])
            .with_fault(Fault::ResetMidBody)
            .with_content_type("text/html"),
    ];
    for scenario in scenarios {
        let text = toml::to_string(&scenario).unwrap();
        let back: Scenario = toml::from_str(&text).unwrap();
        assert_eq!(back, scenario, "{text}");
    }
}

#[test]
fn unknown_fields_are_errors() {
    assert!(toml::from_str::<Scenario>("stauts = 200").is_err());
    assert!(toml::from_str::<Scenario>("[response]\nstauts = 200").is_err());
    assert!(toml::from_str::<Scenario>("fault = \"dns\"").is_err());
}

#[test]
fn validation_names_what_is_wrong() {
    let cases = [
        (Scenario::new(199, ""), "199"),
        (Scenario::new(1000, ""), "1000"),
        (
            Scenario::new(200, "").with_redirects([Redirect::new(200)]),
            "redirects[0]",
        ),
        (
            Scenario::new(200, "").with_content_type("text/plain\n"),
            "content_type",
        ),
        (Scenario::new(200, "").with_pages(["nope"]), "nope"),
        (
            Scenario::new(200, "")
                .with_redirects([Redirect::cross_origin(301), Redirect::cross_origin(301)])
                .with_fault(Fault::ConnectionRefused),
            "connection-refused",
        ),
    ];
    for (scenario, needle) in cases {
        let error = scenario.validate().unwrap_err();
        assert!(error.is_invalid_scenario());
        assert!(error.to_string().contains(needle), "{error} lacks {needle}");
    }
    assert!(Scenario::new(200, "").with_pages(["/"]).validate().is_ok());
}

#[test]
fn a_long_binary_body_debugs_as_its_length() {
    assert_eq!(format!("{:?}", Body::from("ab")), "Body(\"ab\")");
    assert_eq!(
        format!("{:?}", Body::from(vec![0xff; 600_000])),
        "Body(600000 bytes)"
    );
}
