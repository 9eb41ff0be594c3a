/// The rule ids of the findings the plugin host reports, declared once.
public enum PluginRuleID {
    /// A plugin timed out, failed, died, answered garbage, too much, or in another protocol.
    public static let pluginFailed = "plugin-failed"
    /// A plugin's finding points at a file, pointer, line or column that does not exist.
    public static let pluginBadLocation = "plugin-bad-location"
    /// A generator returned a path that would leave the output directory.
    public static let pluginBadPath = "plugin-bad-path"
    /// A post-publish hook failed or complained; the version stays committed.
    public static let postPublishWarning = "post-publish-failed"
    /// Two plugins in plugins.json share a name.
    public static let duplicatePlugin = "duplicate-plugin"
    /// A configured plugin's program is not found or not executable.
    public static let pluginNotFound = "plugin-not-found"

    // Shared decoding ids (the catalog files use the same ones).
    public static let unreadableFile = "unreadable-file"
    public static let missingKey = "missing-key"
    public static let unknownKey = "unknown-key"
    public static let duplicateKey = "duplicate-key"
    public static let wrongType = "wrong-type"
    public static let invalidValue = "invalid-value"
    public static let invalidName = "invalid-name"
    public static let outOfRange = "out-of-range"

    /// The ids only plugins report.
    public static let all = [pluginFailed, pluginBadLocation, pluginBadPath, postPublishWarning, duplicatePlugin, pluginNotFound]
}
