import SlidegateCore
import Testing

/// `--show-user`: the name shown and where the picture is looked for.
@Suite struct UserIdentityTests {
    @Test func theFullNameElseTheLogin() {
        #expect(UserIdentity.displayName(gecos: "Ann Example,Room 3,,", login: "ann") == "Ann Example")
        #expect(UserIdentity.displayName(gecos: "", login: "ann") == "ann")
        #expect(UserIdentity.displayName(gecos: "  ,Room 3", login: "ann") == "ann")
        #expect(UserIdentity.initial(of: "ann") == "A")
        #expect(UserIdentity.initial(of: "") == "?")
    }

    @Test func accountsServicesIconIsTheUserGroupsAbsolutePath() {
        #expect(UserIdentity.icon(inAccountsServiceFile: "[User]\nLanguage=de\nIcon=/var/lib/AccountsService/icons/ann\n") == "/var/lib/AccountsService/icons/ann")
        #expect(UserIdentity.icon(inAccountsServiceFile: "[User]\nIcon=relative.png\n") == nil)
        #expect(UserIdentity.icon(inAccountsServiceFile: "[Other]\nIcon=/x.png\n[User]\nLanguage=de\n") == nil)
        #expect(UserIdentity.icon(inAccountsServiceFile: "") == nil)
    }

    @Test func thePictureIsLookedForInOrder() {
        #expect(
            UserIdentity.pictureCandidates(login: "ann", home: "/home/ann/", accountsServiceFile: "[User]\nIcon=/pics/ann.png\n")
                == ["/pics/ann.png", "/var/lib/AccountsService/icons/ann", "/home/ann/.face"])
        #expect(UserIdentity.pictureCandidates(login: "ann", home: "", accountsServiceFile: nil) == ["/var/lib/AccountsService/icons/ann"])
    }
}
