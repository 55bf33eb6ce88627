// Differential testing harness (tools/aiwolf_diff): plays games on the reference AIWolf server with a
// game setting given on the command line. Compiled and run by tools/aiwolf_diff/run.py against the
// reference jar; it is not part of the project's build.
//
//   java RefGames PORT PLAYERS GAMES LOGDIR SEED [name=value ...]
//
// name is a GameSetting property (enableNoAttack, maxTalk, ...), or roles=ROLE:N,... (the role counts);
// the rest are the reference defaults.
// One line per game: "game N WINNER"; the connections stay open from game to game.
import java.io.File;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.aiwolf.common.data.Role;
import org.aiwolf.common.net.GameSetting;
import org.aiwolf.server.AIWolfGame;
import org.aiwolf.server.net.TcpipServer;

public class RefGames {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int players = Integer.parseInt(args[1]);
        int games = Integer.parseInt(args[2]);
        File logs = new File(args[3]);
        long seed = Long.parseLong(args[4]);
        logs.mkdirs();
        GameSetting setting = GameSetting.getDefaultGame(players);
        for (int i = 5; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            if (kv[0].equals("roles")) {  // roles=SEER:1,WEREWOLF:2,VILLAGER:2
                Map<Role, Integer> roles = new HashMap<>();
                for (Role r : Role.values()) roles.put(r, 0);
                for (String part : kv[1].split(",")) {
                    String[] rn = part.split(":");
                    roles.put(Role.valueOf(rn[0]), Integer.parseInt(rn[1]));
                }
                setting.setRoleNumMap(roles);
                continue;
            }
            String setter = "set" + Character.toUpperCase(kv[0].charAt(0)) + kv[0].substring(1);
            boolean done = false;
            for (Method m : GameSetting.class.getMethods()) {
                if (!m.getName().equals(setter) || m.getParameterCount() != 1) continue;
                Class<?> t = m.getParameterTypes()[0];
                if (t == boolean.class) m.invoke(setting, Boolean.parseBoolean(kv[1]));
                else if (t == int.class) m.invoke(setting, Integer.parseInt(kv[1]));
                else continue;
                done = true;
            }
            if (!done) throw new IllegalArgumentException("no setting " + kv[0]);
        }
        TcpipServer server = new TcpipServer(port, players, setting);
        server.waitForConnection();
        System.out.println("connected " + players);
        int played = 0;
        for (int g = 1; g <= games; g++) {
            AIWolfGame game = new AIWolfGame(setting, server);
            game.setRand(new Random(seed * 100003L + g));
            game.setShowConsoleLog(false);
            game.setLogFile(new File(logs, String.format("%04d.log", g)));
            try {
                game.start();
            } catch (Exception e) {
                System.out.println("game " + g + " FAILED " + e);
                break;
            }
            played++;
            System.out.println("game " + g + " " + game.getWinner());
        }
        System.out.println("done " + played);
        server.close();
        System.exit(0);
    }
}
