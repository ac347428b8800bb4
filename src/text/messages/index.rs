//! The code index: `/index`, `/search` and `/graph`.

messages! {
    IndexOff =>
        en: "the code index is off (index.enabled = false)",
        zh: "代码索引已关闭（`index.enabled = false`）",
    IndexBuilt =>
        en: "{files} files, {chunks} chunks indexed in {seconds} s ({reindexed} re-indexed, {removed} removed)",
        zh: "已索引 {files} 个文件、{chunks} 个片段，用时 {seconds} 秒（重新索引 {reindexed} 个，移除 {removed} 个）",
    IndexEmbedded =>
        en: "{embedded} chunks embedded with {model}",
        zh: "已用 {model} 为 {embedded} 个片段生成向量",
    IndexEmbedFailed =>
        en: "the embedding server failed, so ranking uses keywords only: {error}",
        zh: "向量服务出错，仅按关键词排序：{error}",
    IndexProgressFiles => en: "indexing files", zh: "正在索引文件",
    IndexProgressVectors => en: "embedding chunks", zh: "正在生成向量",
    IndexStatusNone =>
        en: "no index for this project yet; /index builds it (search_code does too, on first use)",
        zh: "本项目还没有索引；`/index` 会建立索引（`search_code` 首次使用时也会）",
    IndexStatus =>
        en: "{path}: {files} files, {chunks} chunks, {embedded} with vectors, {relations} relations",
        zh: "{path}：{files} 个文件、{chunks} 个片段，其中 {embedded} 个有向量，{relations} 条关系",
    IndexEmbeddingsAt => en: "embeddings: {model} at {url}", zh: "向量：{url} 上的 {model}",
    IndexEmbeddingsNone =>
        en: "embeddings: none, ranking by keywords (set [index.embeddings] url to add them)",
        zh: "向量：未配置，按关键词排序（设置 `[index.embeddings] url` 即可启用）",
    IndexCatchingUp =>
        en: "the index is catching up with a large change; recent edits may be missing",
        zh: "索引正在跟进大量改动；最近的修改可能尚未收录",
    IndexFailed => en: "the code index failed: {error}", zh: "代码索引出错：{error}",
    IndexCancelled =>
        en: "indexing stopped; what was indexed so far is kept",
        zh: "索引已停止；已完成的部分会保留",
    SearchUsage => en: "usage: /search <query>", zh: "用法：`/search <query>`",
    SearchNone => en: "no matches for \"{query}\"", zh: "没有匹配“{query}”的结果",
    SearchHeading =>
        en: "{count} hits for \"{query}\", ranked by {ranking}",
        zh: "“{query}”的 {count} 条结果，{ranking}",
    RankingKeywords => en: "keywords", zh: "按关键词排序",
    RankingHybrid => en: "keywords + embeddings", zh: "按关键词和向量排序",
    GraphUsage => en: "usage: /graph <Symbol>", zh: "用法：`/graph <Symbol>`",
    GraphNone => en: "the index knows nothing about `{symbol}`", zh: "索引中没有关于 `{symbol}` 的信息",
    GraphBestEffort =>
        en: "read from syntax and matched by name (best effort)",
        zh: "依据语法、按名称匹配（尽力而为）",
    GraphDefinitions => en: "defined at", zh: "定义于",
    GraphContains => en: "contains", zh: "包含",
    GraphContainedIn => en: "member of", zh: "属于",
    GraphExtends => en: "extends", zh: "继承",
    GraphImplements => en: "implements", zh: "实现",
    GraphSubtypes => en: "extended or implemented by", zh: "被以下类型继承或实现",
    GraphCallers => en: "called by", zh: "调用者",
    GraphCalls => en: "calls", zh: "调用",
}
