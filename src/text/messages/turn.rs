//! How a turn ends early or goes wrong: partial completions, cut-off replies, retries, the loop's notices.

messages! {
    PartialCompletion => en: "partial completion", zh: "部分完成",
    PartialStagnation =>
        en: "stopped early ({reason}): the model repeated the same tool calls; the answer is a partial report",
        zh: "提前停止（{reason}）：模型反复发出相同的工具调用；输出是部分结果",
    PartialTokens =>
        en: "stopped early ({reason}): the task used up its token budget (--token-budget); the answer is a partial \
             report",
        zh: "提前停止（{reason}）：任务用完了 token 预算（--token-budget）；输出是部分结果",
    PartialIterations =>
        en: "stopped early ({reason}): the task reached its model-call limit (--max-iterations); the answer is a \
             partial report",
        zh: "提前停止（{reason}）：任务达到了模型调用次数上限（--max-iterations）；输出是部分结果",
    PartialOutputLimit =>
        en: "stopped early ({reason}): the model's replies kept stopping at the output limit before their tool calls \
             were complete; the answer is a partial report",
        zh: "提前停止（{reason}）：模型的回复一再在工具调用完成前达到输出上限；输出是部分结果",
    AllDenied =>
        en: "nothing done: all actions were denied (exit code 4)",
        zh: "什么也没做：所有操作都被拒绝（退出码 4）",
    NoticeDsmlCallsRun =>
        en: "the model wrote {calls} tool call(s) as DSML text; running them as tool calls",
        zh: "模型以 DSML 文本写了 {calls} 个工具调用；按工具调用执行",
    NoticeDsmlNotRun =>
        en: "tool call not executed: the answer holds DSML markup that paicli cannot run ({why})",
        zh: "工具调用未执行：回答中含有 paicli 无法执行的 DSML 标记（{why}）",
    NoticeAnswerCutOff =>
        en: "the answer was cut off at the model's output limit",
        zh: "回答在模型的输出上限处被截断",
    NoticeRunawayReminder =>
        en: "runaway guard: the model keeps repeating itself; reminded it to change course",
        zh: "失控保护：模型一直在重复自己；已提醒它换个做法",
    NoticePartialCompletion =>
        en: "partial completion ({reason}): asking the model for a report",
        zh: "部分完成（{reason}）：正在请模型给出报告",
    NoticeHeadlineOnly =>
        en: "This looks like a headline only, so web tools are off for this turn. Say what you want done with it \
             (e.g. summarize it, write an article, explain the topic).",
        zh: "这看起来只是一个标题，所以本轮不使用网络工具。请说明要对它做什么（例如总结、写文章、解释这个主题）。",
    NoticeNote => en: "note: {text}", zh: "提示：{text}",
    NoticeToolCallsCutOff =>
        en: "the reply was cut off at the output limit before its {calls} tool call(s) were complete; none ran, \
             asking the model for a shorter step",
        zh: "回复在输出上限处被截断，其中 {calls} 个工具调用不完整；均未执行，已请模型换一个更短的步骤",
    NoticeToolCallsCutOffAgain =>
        en: "the reply was cut off at the output limit again; its {calls} tool call(s) did not run and the task \
             stops (raise max_output_tokens or ask for smaller steps)",
        zh: "回复再次在输出上限处被截断；其中 {calls} 个工具调用未执行，任务停止（调高 max_output_tokens 或要求更小的\
             步骤）",
    NoticeEmptyAnswer =>
        en: "the model gave no answer: its reply was empty",
        zh: "模型没有给出回答：回复为空",
    NoticeReasoningOnly =>
        en: "the model gave no answer: its reply held only reasoning",
        zh: "模型没有给出回答：回复中只有思考过程",
    NoticeReasoningCutOff =>
        en: "the model gave no answer: it was still reasoning when the reply reached the output limit (raise \
             max_output_tokens)",
        zh: "模型没有给出回答：回复达到输出上限时它仍在思考（调高 max_output_tokens）",
    NoticeRetrying =>
        en: "{cause}, retrying in {seconds} s ({attempt}/{max})",
        zh: "{cause}，{seconds} 秒后重试（{attempt}/{max}）",
}
