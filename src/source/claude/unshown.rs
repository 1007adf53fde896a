//! What of a line no entry shows, found off its bytes: a search that
//! finds a word only there holds no hit, and need not decode the line.
//! A tool result's line carries its result twice: as the message's text,
//! which its row shows, and as `toolUseResult`, a structured copy (an
//! edited file whole, a patch, a command's output again) of which the
//! model keeps numbers and a patch, never text. On real sessions a
//! search of "error" decoded a line for every file an edit had touched
//! that said the word somewhere.

use super::cursor::Cursor;
use std::ops::Range;

/// Where the top-level `toolUseResult` value of `line` is, when it is a
/// user entry with a message (an object), whose rows are made of that
/// message alone. `None` on any doubt: another kind of line, no message
/// (a line the model shows as it is), a key twice, a line that does not
/// read as JSON to its end.
pub fn tool_use_result(line: &[u8]) -> Option<Range<usize>> {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static KEY: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"toolUseResult\""));
    KEY.find(line)?;
    let mut c = Cursor::new(line);
    let (mut user, mut message, mut span) = (false, false, None);
    c.object(&mut |c, key| {
        match key {
            b"type" => {
                // another kind of line: no need to read on
                (c.string()? == b"user").then_some(())?;
                user = true;
            }
            b"message" => {
                message = c.peek()? == b'{';
                c.skip()?;
            }
            b"toolUseResult" => {
                c.ws();
                let start = c.i;
                c.skip()?;
                span = Some(start..c.i);
            }
            _ => c.skip()?,
        }
        Some(())
    })?;
    c.ws();
    // nothing may follow the object (serde would refuse the line)
    (user && message && c.i == line.len()).then_some(span?)
}

/// Where `data.prompt` of `line` is, when it is a subagent's progress
/// (`{"type": "progress", "data": {"type": "agent_progress", "prompt":
/// …, "message": …}}`): the agent's prompt, repeated on every line of
/// its progress, which the model never reads (the line's rows are those
/// of the line it mirrors in `data.message`; the prompt's row is the
/// agent's first line). A search of a word of the prompt decoded every
/// line of the agent's work. `None` on any doubt, as for
/// [`tool_use_result`].
pub fn agent_prompt(line: &[u8]) -> Option<Range<usize>> {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static KIND: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"agent_progress\""));
    KIND.find(line)?;
    let mut c = Cursor::new(line);
    let (mut progress, mut agent, mut span) = (false, false, None);
    c.object(&mut |c, key| {
        match key {
            b"type" => {
                (c.string()? == b"progress").then_some(())?;
                progress = true;
            }
            b"data" => {
                c.ws();
                (c.peek()? == b'{').then_some(())?;
                c.object(&mut |c, key| {
                    match key {
                        b"type" => agent = c.string()? == b"agent_progress",
                        b"prompt" => {
                            c.ws();
                            let start = c.i;
                            c.skip()?;
                            span = Some(start..c.i);
                        }
                        _ => c.skip()?,
                    }
                    Some(())
                })?;
            }
            _ => c.skip()?,
        }
        Some(())
    })?;
    c.ws();
    (progress && agent && c.i == line.len()).then_some(span?)
}

#[cfg(test)]
mod tests {
    use super::{agent_prompt, tool_use_result};

    fn span_text(line: &str) -> Option<&str> {
        tool_use_result(line.as_bytes()).and_then(|r| line.get(r))
    }

    #[test]
    fn the_copy_of_a_result_and_nothing_else() {
        let line = r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]},"toolUseResult":{"originalFile":"an error \"here\"","n":1} ,"uuid":"u"}"#;
        assert_eq!(
            span_text(line),
            Some(r#"{"originalFile":"an error \"here\"","n":1}"#)
        );
        assert_eq!(
            span_text(r#"{"toolUseResult":"Error: x","message":{},"type":"user"}"#),
            Some(r#""Error: x""#)
        );
        for doubt in [
            // not a user line, or one without a message object: shown as is
            r#"{"type":"assistant","message":{},"toolUseResult":"x"}"#,
            r#"{"type":"new-kind","message":{},"toolUseResult":"x"}"#,
            r#"{"type":"user","toolUseResult":"x"}"#,
            r#"{"type":"user","message":null,"toolUseResult":"x"}"#,
            r#"{"type":"user","message":"hi","toolUseResult":"x"}"#,
            // a key twice, a line cut or followed by more
            r#"{"type":"user","message":{},"toolUseResult":"x","toolUseResult":"y"}"#,
            r#"{"type":"user","message":{},"toolUseResult":"x","type":"user"}"#,
            r#"{"type":"user","message":{},"toolUseResult":{"a":1,"a":2}}"#,
            r#"{"type":"user","message":{},"toolUseResult":"x""#,
            r#"{"type":"user","message":{},"toolUseResult":"x"} x"#,
            // no copy at all, or one inside another value
            r#"{"type":"user","message":{"toolUseResult":"x"}}"#,
            r#"{"type":"user","message":{}}"#,
            r#"{"type":"us\u0065r","message":{},"toolUseResult":"x"}"#,
        ] {
            assert_eq!(span_text(doubt), None, "{doubt}");
        }
    }

    #[test]
    fn every_cut_of_a_line_is_answered() {
        let line = r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"a\\\"b"}]},"toolUseResult":{"stdout":"x\\","k":[1,true,null]}}"#;
        for cut in 0..line.len() {
            let part = &line.as_bytes()[..cut];
            assert_eq!(tool_use_result(part), None, "{cut}");
        }
        assert!(tool_use_result(line.as_bytes()).is_some());
    }

    #[test]
    fn the_prompt_of_an_agents_progress_and_nothing_else() {
        fn span(line: &str) -> Option<&str> {
            agent_prompt(line.as_bytes()).and_then(|r| line.get(r))
        }
        let line = r#"{"type":"progress","data":{"message":{"type":"user","message":{"content":"fix the error"}},"type":"agent_progress","prompt":"find the \"error\"","agentId":"a"} ,"uuid":"u"}"#;
        assert_eq!(span(line), Some(r#""find the \"error\"""#));
        for doubt in [
            // another kind of line or of progress, no prompt
            r#"{"type":"user","data":{"type":"agent_progress","prompt":"x"}}"#,
            r#"{"type":"progress","data":{"type":"bash_progress","prompt":"x"},"x":"agent_progress"}"#,
            r#"{"type":"progress","data":{"type":"agent_progress"}}"#,
            r#"{"type":"progress","data":"agent_progress"}"#,
            r#"{"type":"progress","prompt":"x","data":{"type":"agent_progress"}}"#,
            // a key twice, a line cut or followed by more, an escaped kind
            r#"{"type":"progress","data":{"type":"agent_progress","prompt":"x","prompt":"y"}}"#,
            r#"{"type":"progress","data":{"type":"agent_progress","prompt":"x"},"type":"progress"}"#,
            r#"{"type":"progress","data":{"type":"agent_progress","prompt":"x"}"#,
            r#"{"type":"progress","data":{"type":"agent_progress","prompt":"x"}} x"#,
            r#"{"type":"progress","data":{"type":"agent\u005fprogress","prompt":"x"},"k":"agent_progress"}"#,
        ] {
            assert_eq!(span(doubt), None, "{doubt}");
        }
        for cut in 0..line.len() {
            assert_eq!(agent_prompt(&line.as_bytes()[..cut]), None, "{cut}");
        }
    }
}
