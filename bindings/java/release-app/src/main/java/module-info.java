module scratch { requires org.libaead; uses java.security.Provider; }
