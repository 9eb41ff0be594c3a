public enum TipcatCommand {
    public static func main() {}
}
